#!/usr/bin/env bash
# Provisions EPUBCheck (Maven Central org.w3c:epubcheck, with its dependencies) into
# .local/epubcheck/lib, idempotently, and prints the classpath to run it with:
#   java -cp "$(bash scripts/epubcheck.sh)" com.adobe.epubcheck.tool.Checker book.epub
# Used by tests/api/export.test.ts where `java` is present. Says on stderr which route it took.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LIB="$ROOT/.local/epubcheck/lib"
VERSION="$(sed -n 's:.*<version>\(5[^<]*\)</version>.*:\1:p' "$ROOT/scripts/epubcheck/pom.xml" | head -n1)"

if [ -f "$LIB/epubcheck-$VERSION.jar" ]; then
  echo "epubcheck: $VERSION already in .local/epubcheck/lib" >&2
else
  command -v java >/dev/null || { echo "epubcheck: java is not installed (Debian: openjdk-17-jre-headless)" >&2; exit 2; }
  command -v mvn >/dev/null || { echo "epubcheck: mvn is not installed (Debian: maven)" >&2; exit 2; }
  echo "epubcheck: fetching org.w3c:epubcheck:$VERSION and its dependencies from Maven Central" >&2
  rm -rf "$LIB.tmp"
  mvn -q -B -f "$ROOT/scripts/epubcheck/pom.xml" dependency:copy-dependencies -DoutputDirectory="$LIB.tmp" >&2
  rm -rf "$LIB" && mv "$LIB.tmp" "$LIB"
fi
echo "$LIB/*"
