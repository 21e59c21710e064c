# The jgym server image: a static binary on a minimal base, serving
# beyond loopback with a token and TLS (docs/security.md). Mount the
# tokens file at /etc/jgym/tokens and the certificate and key at
# /etc/jgym/tls/tls.crt and tls.key (jgym certs and jgym token make them):
#   docker build -t jgym .
#   docker run -p 50051:50051 -p 9090:9090 -v "$PWD/secrets:/etc/jgym:ro" jgym
# The image has no compiler and no bubblewrap, and Docker's default
# seccomp profile forbids the sandbox's user namespaces, so cpp: bots are
# refused; built-in bots and policies (uploaded or from a mounted
# --bots-dir) play. To host C++ bots a container needs bubblewrap and g++
# in its image, user namespaces (a seccomp profile that allows them) and,
# for uploaded ones, a writable cgroup of its own (cgroup v2, a private
# cgroup namespace, /sys/fs/cgroup read-write): there jgym gives every
# bot's sandbox a control group that counts its memory and CPU. Without
# that cgroup jgym serve refuses uploaded C++ bots and logs why, unless it
# is started with --allow-uncounted-cpp-uploads (docs/security.md, "Where
# there are no control groups").
# Each build step is a script that CI runs outside Docker as well
# (scripts/build-server.sh), since CI machines have no Docker engine.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN scripts/build-server.sh /out/jgym

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/jgym /usr/local/bin/jgym
EXPOSE 50051 9090
# Inside the container the server must listen on all interfaces; outside a
# container jgym serve defaults to 127.0.0.1. The metrics port follows the
# same rule: with the tokens and TLS it serves HTTPS, /metrics to a token
# holder only; /healthz on it (no token) is the liveness and readiness probe.
ENTRYPOINT ["/usr/local/bin/jgym", "serve", "--addr", "0.0.0.0:50051", "--metrics-addr", "0.0.0.0:9090", \
  "--tokens", "/etc/jgym/tokens", "--tls-cert", "/etc/jgym/tls/tls.crt", "--tls-key", "/etc/jgym/tls/tls.key", \
  "--log-format", "json"]
