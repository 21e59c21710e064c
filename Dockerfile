# The jgym server image: a static binary on a minimal base.
#   docker build -t jgym .
#   docker run -p 50051:50051 -p 9090:9090 jgym
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
# container jgym serve defaults to 127.0.0.1.
ENTRYPOINT ["/usr/local/bin/jgym", "serve", "--addr", "0.0.0.0:50051", "--metrics-addr", "0.0.0.0:9090", "--log-format", "json"]
