#!/usr/bin/env bash
# npm run test:containers — the container sandbox on real containers (docs/testing.md, "Real
# containers"). Makes sure Docker runs (Debian's docker.io, installed with apt when absent; the
# engine started by hand when none answers), builds what is missing — the base images
# (../shared/container-lab/build-base-images.sh), our network sidecar (sandbox/egress-sidecar) —
# and runs test/adapters/sandbox-container/*.local.ts against `wrangler dev` with containers.
# Images are reused between runs when the machine keeps them (`docker image inspect` first).
# Where Docker cannot run, it says why and exits 0 (skipped); where it can, the suite must pass.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
lab="${LITTLE_CONTAINER_LAB:-$root/../shared/container-lab}"
state="${LITTLE_CONTAINER_STATE:-${TMPDIR:-/tmp}/little-containers}"
mkdir -p "$state"
started=$(date +%s)
say() { echo "test:containers: $*"; }
skip() {
  say "skipped — $*"
  exit 0
}
as_root=""
if [ "$(id -u)" -ne 0 ]; then
  if sudo -n true 2>/dev/null; then as_root="sudo -n"; else as_root="none"; fi
fi
root_do() {
  if [ "$as_root" = none ]; then return 1; fi
  $as_root env DEBIAN_FRONTEND=noninteractive "$@"
}
apt_install() {
  command -v apt-get >/dev/null || return 1
  root_do apt-get update -qq && root_do apt-get install -y -qq "$@" >/dev/null
}

# 1. A Docker engine.
if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null; then
    say "no Docker engine here; installing Debian's docker.io with apt"
    apt_install docker.io || skip "Docker is not installed and could not be installed (needs apt and root)"
  fi
  if ! docker info >/dev/null 2>&1; then
    [ "$as_root" = none ] && skip "no Docker engine answers and starting dockerd needs root"
    say "starting dockerd (log: $state/dockerd.log)"
    $as_root sh -c "nohup dockerd >'$state/dockerd.log' 2>&1 &"
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
    docker info >/dev/null 2>&1 || skip "dockerd did not start: $(tail -n 3 "$state/dockerd.log" | tr '\n' ' ')"
  fi
fi
say "Docker $(docker info --format '{{.ServerVersion}}')"

# 2. The base images, the shims: the container lab beside the repository.
[ -d "$lab" ] || skip "no container lab at $lab (build-base-images.sh, docker-compat, docker-api-proxy.mjs): the base images cannot be built here"
if docker image inspect docker.io/cloudflare/sandbox:0.12.10 >/dev/null 2>&1; then
  say "base images present (cached)"
else
  command -v debootstrap >/dev/null || apt_install debootstrap || skip "debootstrap is missing and could not be installed"
  say "building the base images ($lab/build-base-images.sh)"
  "$lab/build-base-images.sh" "$state/lab-work"
fi

# 3. Our network sidecar (MINIFLARE_CONTAINER_EGRESS_IMAGE), tagged by its source's digest.
sidecar_src="$root/sandbox/egress-sidecar"
sidecar_tag="little/egress-sidecar:$(cat "$sidecar_src/sidecar.c" "$sidecar_src/Dockerfile" | sha256sum | cut -c1-12)"
if docker image inspect "$sidecar_tag" >/dev/null 2>&1; then
  say "sidecar $sidecar_tag present (cached)"
else
  command -v gcc >/dev/null || apt_install gcc libc6-dev || skip "gcc is missing and could not be installed (the sidecar is a static C binary)"
  rm -rf "$state/sidecar" && mkdir -p "$state/sidecar"
  gcc -static -O2 -o "$state/sidecar/sidecar" "$sidecar_src/sidecar.c"
  cp "$sidecar_src/Dockerfile" "$state/sidecar/"
  docker build -q -t "$sidecar_tag" "$state/sidecar" >/dev/null
  say "built $sidecar_tag ($(docker image inspect "$sidecar_tag" --format '{{.Size}}') bytes)"
fi

# 4. Docker API proxies for wrangler: one adds SYS_ADMIN and NET_ADMIN to the sandbox's container
# (a runtime where root may call `unshare --net`, as on Cloudflare: docs/sandbox.md, "Network
# namespaces"), one passes Docker's defaults (where it may not: the fail-closed branch).
proxies=()
cleanup() {
  for pid in "${proxies[@]}"; do kill "$pid" 2>/dev/null || true; done
  # Containers workerd left behind (a killed run): ours, by name.
  docker ps -aq --filter name=workerd- | xargs -r docker rm -f >/dev/null 2>&1 || true
}
trap cleanup EXIT
CAP_ADD=SYS_ADMIN,NET_ADMIN node "$lab/docker-api-proxy.mjs" "$state/docker-caps.sock" >"$state/proxy-caps.log" 2>&1 &
proxies+=($!)
node "$lab/docker-api-proxy.mjs" "$state/docker-default.sock" >"$state/proxy-default.log" 2>&1 &
proxies+=($!)
for _ in $(seq 50); do [ -S "$state/docker-caps.sock" ] && [ -S "$state/docker-default.sock" ] && break; sleep 0.1; done

export WRANGLER_DOCKER_BIN="$lab/docker-compat"
export WRANGLER_DOCKER_HOST="unix://$state/docker-caps.sock"
export LITTLE_DOCKER_HOST_DEFAULT_CAPS="unix://$state/docker-default.sock"
export MINIFLARE_CONTAINER_EGRESS_IMAGE="$sidecar_tag"
export LITTLE_SANDBOX_CONTAINER_TESTS=1
say "ready after $(($(date +%s) - started)) s"
status=0
if [ "${1:-}" = "--bench" ]; then
  # npm run test:containers -- --bench [--reps N]: the container vs isolate figures (bench/container-sandbox.ts).
  shift
  node bench/run.ts container-sandbox "$@" || status=$?
else
  npx vitest run --config test/adapters/sandbox-container/vitest.local.config.ts "$@" || status=$?
fi
say "done in $(($(date +%s) - started)) s (status $status)"
exit $status
