#!/usr/bin/env bash
# Installs the Debian 12 packages the project builds against, only those missing.
# Idempotent and quiet when nothing is to do.
#   scripts/setup.sh [--test|--fuzz]   --test adds what the test suite runs besides the build:
#                               slurm-wlm and munge (a private Slurm for the sweep tests), parallel,
#                               chromium and its font (headless, renders report.html in the report test);
#                               --fuzz adds clang, libFuzzer and the OpenMP runtime for clang (the
#                               sanitizer tree: scripts/build.sh --sanitize, scripts/fuzz.sh)
set -euo pipefail
# libonnx-dev + libprotobuf-dev: the ONNX importer; python3-onnx and libonnx-testdata: its tests
# (models built with onnx.helper, the ONNX backend's single-operator models).
pkgs=(g++ cmake make ninja-build pkg-config libsystemc-dev libyaml-cpp-dev nlohmann-json3-dev
      libboost-program-options-dev catch2 python3 python3-yaml
      libonnx-dev libprotobuf-dev python3-onnx libonnx-testdata)
case "${1:-}" in
  --test) pkgs+=(slurm-wlm munge parallel chromium fonts-dejavu-core) ;;
  --fuzz) pkgs+=(clang libfuzzer-14-dev libclang-rt-14-dev libomp-dev) ;;
  "") ;;
  *) echo "setup: unknown argument $1" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
