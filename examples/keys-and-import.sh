#!/usr/bin/env bash
# Sets up a tenant the way an operator would: a tenant, a least-privilege key for the website
# (read only), a separate key for the contact form, and the sample content in English and
# Japanese. Safe to try on a scratch database:
#
#   npm install @frontdesk/cli      # puts `frontdesk` in node_modules/.bin (npx frontdesk …)
#   PATH="$PWD/node_modules/.bin:$PATH" FRONTDESK_DB=/tmp/demo.db examples/keys-and-import.sh
#
# Every command reads the database from $FRONTDESK_DB (default ./frontdesk.db); `--db PATH`
# works too. Commands print tables for people and JSON with --json for scripts.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# The repository's CLI when run from a checkout, else `frontdesk` on the PATH.
if [ -f "$here/../packages/cli/bin/frontdesk.js" ]; then
  frontdesk() { node "$here/../packages/cli/bin/frontdesk.js" "$@"; }
fi
tenant="${TENANT:-acme}"

frontdesk tenant create "$tenant" --name "Acme Corporation"

# The website only reads and searches content: it gets nothing more (least privilege).
web_key_json="$(frontdesk key create --tenant "$tenant" --name "website" --permissions cms:read,cms:search --json)"
# The contact form creates inquiries and nothing else.
form_key_json="$(frontdesk key create --tenant "$tenant" --name "contact form" --permissions inquiry:create --rate-limit 10 --json)"

# The key is printed once: store it in your secret manager now (here, only its id is shown).
json_field() { node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>console.log(JSON.parse(s)[process.argv[1]]))' "$1"; }
echo "website key id:      $(printf '%s' "$web_key_json" | json_field id)"
echo "contact form key id: $(printf '%s' "$form_key_json" | json_field id)"

# Check first (writes nothing), then import for real: all or nothing.
frontdesk import "$here/sample-content.ndjson" --tenant "$tenant" --dry-run
frontdesk import "$here/sample-content.ndjson" --tenant "$tenant"

# Importing the same file again changes nothing (versions stay as they are).
frontdesk import "$here/sample-content.ndjson" --tenant "$tenant"

frontdesk key list --tenant "$tenant"
