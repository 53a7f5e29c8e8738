#!/bin/sh
# Fetches version 0.31.2 of the CommonMark spec (spec.txt, from the
# commonmark/commonmark-spec repository, tag 0.31.2) into .cache/ for
# markdown.test.mjs, which runs its examples for code spans, emphasis and
# links against the notes' Markdown (web/markdown.js). The spec is
# CC-BY-SA 4.0, so it is fetched, not kept in the repo.
set -eu
cd "$(dirname "$0")"
version=0.31.2
sum=257c41ad946f7a1414a499aca402a1aa8fdac3678532266611348c1cf54f4b80
out=.cache/commonmark-spec-$version.txt
mkdir -p .cache
curl -fsSL "https://raw.githubusercontent.com/commonmark/commonmark-spec/$version/spec.txt" -o "$out.tmp"
got=$(sha256sum "$out.tmp" | cut -d' ' -f1)
if [ "$got" != "$sum" ]; then
	echo "fetch-commonmark-spec: $out.tmp has sha256 $got, expected $sum" >&2
	exit 1
fi
mv "$out.tmp" "$out"
echo "fetch-commonmark-spec: $out"
