# The diazo sandbox as a container: the compiled Linux binary on a small base (distroless, glibc, no
# shell), run as a non-root user, keeping every service's state in the volume /data. The build
# context is a folder holding the binary as `diazo` (the release workflow copies
# dist/diazo-<version>-x86_64-unknown-linux-gnu there):
#   docker build -t diazo-sandbox <folder>   # with this file as <folder>/Dockerfile
#   docker run -p 8787:8787 -v diazo-data:/data -e DIAZO_SANDBOX_TOKEN=<token> diazo-sandbox
# It binds 0.0.0.0, so its control API (/_sandbox/: reset, state, snapshots, faults...) asks every
# request but /_sandbox/health for `Authorization: Bearer <token>`: the token of DIAZO_SANDBOX_TOKEN,
# or else a random one printed at start (`docker logs`). Control requests that change something are
# sent as application/json; see README.md, "sandbox". /data must be empty or a sandbox's data dir.
FROM busybox:1.36 AS data
RUN mkdir -p /data && chown 65532:65532 /data

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --chmod=0755 diazo /usr/local/bin/diazo
COPY --from=data --chown=65532:65532 /data /data
USER 65532:65532
VOLUME /data
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=5s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/diazo", "sandbox", "--check-health", "--host", "127.0.0.1", "--port", "8787"]
ENTRYPOINT ["/usr/local/bin/diazo", "sandbox", "--host", "0.0.0.0", "--port", "8787", "--data-dir", "/data"]
