# The diazo sandbox as a container: the compiled Linux binary on a small base (distroless, glibc, no
# shell), run as a non-root user, keeping every service's state in the volume /data. The build
# context is a folder holding the binary as `diazo` (the release workflow copies
# dist/diazo-<version>-x86_64-unknown-linux-gnu there):
#   docker build -t diazo-sandbox <folder>   # with this file as <folder>/Dockerfile
#   docker run -p 8787:8787 -v diazo-data:/data diazo-sandbox
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
