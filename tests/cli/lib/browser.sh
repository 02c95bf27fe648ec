# Headless Chromium (Debian package chromium) for the report tests and screenshots.
#   render_dom PAGE.html OUT.dom      the DOM after the page's scripts ran
#   screenshot PAGE.html OUT.png [WIDTHxHEIGHT]
chromium_bin() { command -v chromium || command -v chromium-browser; }
_chromium() {
  local prof; prof=$(mktemp -d)
  "$(chromium_bin)" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --user-data-dir="$prof" --hide-scrollbars \
    --virtual-time-budget=20000 "$@" 2>/dev/null
  local rc=$?
  rm -rf "$prof"
  return $rc
}
render_dom() { _chromium --dump-dom "file://$(realpath "$1")" > "$2"; }
screenshot() { _chromium --window-size="${3:-1300,3000}" --screenshot="$2" "file://$(realpath "$1")" >/dev/null; }
