# syntax=docker/dockerfile:1
#
# Framewright's two images, from one Dockerfile (they share the build stage, so it runs once):
#
#   docker build --target api    -t framewright:0.1.0 .          the API and the operator
#   docker build --target worker -t framewright-worker:0.1.0 .   the render worker (ffmpeg, EGL, Mesa)
#
# `docker build .` without --target builds the last stage, `api`. The README's "Building the
# images" section has the full commands (labels, buildx, pushing) and test/images/images.test.ts
# holds this file to its layout. The base images are Node 24 (the LTS that package.json's engines
# and scripts/install.sh name), pinned by tag; to pin by digest as well, give the ARG below (or
# --build-arg) `node:24-bookworm-slim@sha256:<digest>` (the digest of the multi-platform index,
# from `docker buildx imagetools inspect node:24-bookworm-slim`); the tag then only documents it.

ARG NODE_BUILD_IMAGE=node:24-bookworm
ARG NODE_RUNTIME_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------
# build: compilers, every npm package, `npm run build`, then the development packages pruned.
# ---------------------------------------------------------------------------------------------
FROM ${NODE_BUILD_IMAGE} AS build
ARG DEBIAN_FRONTEND=noninteractive
# headless-gl's binding (`gl`; it bundles ANGLE built) is compiled here: a C++ toolchain and python3
# for node-gyp (python-is-python3: the `python` command). `patch` applies patches/*.patch.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      build-essential python3 python-is-python3 patch \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so a change to the sources reuses this (slow: headless-gl) layer.
COPY package.json package-lock.json .npmrc ./
COPY patches/ patches/
# `npm install`, not `npm ci`, for the reason scripts/install.sh gives: the lock file leaves out
# some of Biome's optional platform packages (a development tool), which `npm ci` reports as a lock
# mismatch; `npm install` installs exactly the locked versions of everything the lock holds.
# npm_config_nodedir: node-gyp uses the headers this Node image ships in /usr/local/include/node
# instead of downloading them. npm_config_build_from_source=gl: headless-gl is compiled here, not
# fetched as a prebuilt binary (prebuild-install reads the package name). Then the patches, as
# scripts/install.sh applies them after every install (one that no longer fits fails the build),
# and headless-gl compiled again with its patched sources (gl+*.patch: ANGLE's EGL platform).
RUN export npm_config_nodedir=/usr/local npm_config_build_from_source=gl \
 && npm install --no-audit --no-fund \
 && for p in patches/*.patch; do \
      [ -e "$p" ] || continue; \
      echo "applying $p"; \
      patch -p1 -N -s -f <"$p" || { echo "$p does not apply: update or drop it" >&2; exit 1; }; \
    done \
 && npm rebuild gl
COPY . .
# dist/: the sources as plain JavaScript (scripts/build.sh), run by `node` with no development tools.
# scripts/prune-fonts.ts removes the font files the renderer never reads (each @fontsource subset
# comes as WOFF and WOFF2; one is read) and CanvasKit's unused builds: ~157 MiB.
RUN npm run build \
 && node --import tsx scripts/prune-fonts.ts \
 && npm prune --omit=dev --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
# runtime: what both images share. No compilers, no package lists, a numeric non-root user.
# ---------------------------------------------------------------------------------------------
FROM ${NODE_RUNTIME_IMAGE} AS runtime
ARG DEBIAN_FRONTEND=noninteractive
# ffmpeg from Debian: H.264 by h264_nvenc where an NVIDIA encoder answers the probe, else libx264;
# VP9 (libvpx) and Opus for webm, ProRes 4444 for mov, LAME for mp3, the GIF palette filters. The API
# needs it too: POST /v1/assets checks every audio and video upload with ffprobe (api/assets/routes.ts).
# tini: the containers' init (PID 1). Node as PID 1 ignores a SIGTERM that comes before it sets a
# handler (the kernel gives PID 1 no default action), so a pod deleted in its first second ran on
# until the kubelet's SIGKILL; under tini it stops at once, and zombies are reaped.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg tini \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*
# uid/gid 10001 with a passwd entry (os.userInfo() and some tools want one); it owns only DATA_DIR:
# the application under /app stays root's, read-only to the process.
RUN groupadd --gid 10001 framewright \
 && useradd --uid 10001 --gid 10001 --home-dir /var/lib/framewright --no-create-home \
      --shell /usr/sbin/nologin framewright \
 && install -d -o 10001 -g 10001 -m 0750 /var/lib/framewright
ENV NODE_ENV=production \
    FRAMEWRIGHT_FROM=dist \
    DATA_DIR=/var/lib/framewright
WORKDIR /app

# ---------------------------------------------------------------------------------------------
# worker: image `framewright-worker`. Runs one Render in a Job pod (the operator sets the args
# ["worker", "--render", NAME] to the entrypoint); also `framewright serve` with the in-process
# executor or `framewright render`, everything in one container.
# ---------------------------------------------------------------------------------------------
FROM runtime AS worker
ARG DEBIAN_FRONTEND=noninteractive
# Drawing, with no X server (worker/draw/backend/egl.ts): headless-gl's ANGLE (in node_modules)
# draws through the system's EGL, libEGL.so.1 from libglvnd (libegl1). Where the NVIDIA runtime
# mounts the driver (the `graphics` capability), libglvnd finds it through the vendor file below;
# elsewhere it uses Mesa's (libegl-mesa0), whose
# llvmpipe (libgl1-mesa-dri) draws on the CPU. libx11-6, libxext6, libxcb1 and libdrm2: what
# ANGLE's libGLESv2.so links (ldd), though it opens no display. The fonts (@fontsource/*) and espeak-ng come in node_modules: espeak-ng (GPL-3.0)
# is @echogarden/espeak-ng-emscripten, run only as a separate child process that talks to
# Framewright through messages (worker/prepare/speech/espeak-child.ts), never linked into it; Debian's
# espeak-ng and system fonts would go unused.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libegl1 libegl-mesa0 libgl1-mesa-dri libx11-6 libxext6 libxcb1 libdrm2 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*
# The NVIDIA driver's EGL vendor file, as NVIDIA's own OpenGL images carry it: the container
# toolkit mounts the library it names (libEGL_nvidia.so.0) but often not this file, and without it
# ANGLE draws on llvmpipe on a GPU node. Where no driver is mounted libglvnd skips it for Mesa's.
RUN install -d /usr/share/glvnd/egl_vendor.d \
 && printf '%s\n' '{"file_format_version": "1.0.0", "ICD": {"library_path": "libEGL_nvidia.so.0"}}' \
      >/usr/share/glvnd/egl_vendor.d/10_nvidia.json
# The NVIDIA container runtime mounts the driver's libraries the image asks for: NVENC needs
# `video` (libnvidia-encode), drawing `graphics` (its EGL), besides compute and utility.
# Without a GPU this does nothing.
ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility,video,graphics
COPY --from=build /src/dist/ /app/dist/
COPY --from=build /src/bin/framewright /app/bin/framewright
COPY --from=build /src/package.json /app/package.json
COPY --from=build /src/node_modules/ /app/node_modules/
RUN ln -s /app/bin/framewright /usr/local/bin/framewright
USER 10001:10001
ENTRYPOINT ["tini", "--", "framewright"]
CMD ["--help"]
# Set by the build (see the README): the version, the commit, the time (RFC 3339) and the repository.
ARG VERSION=0.0.0-dev
ARG REVISION=
ARG CREATED=
ARG SOURCE=
ARG NODE_RUNTIME_IMAGE
LABEL org.opencontainers.image.title="framewright-worker" \
      org.opencontainers.image.description="Framewright render worker: three.js on headless-gl (ANGLE on EGL), ffmpeg (libx264 or h264_nvenc, libvpx, ProRes, LAME), espeak-ng speech" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="${NODE_RUNTIME_IMAGE}"

# ---------------------------------------------------------------------------------------------
# api: image `framewright`. `framewright serve` (the API, PORT 8080, METRICS_PORT 9090 when set);
# the operator runs the same image with the argument `operator` (OPERATOR_METRICS_PORT 9090).
# ---------------------------------------------------------------------------------------------
FROM runtime AS api
COPY --from=build /src/dist/ /app/dist/
COPY --from=build /src/bin/framewright /app/bin/framewright
COPY --from=build /src/package.json /app/package.json
COPY --from=build /src/node_modules/ /app/node_modules/
RUN ln -s /app/bin/framewright /usr/local/bin/framewright
USER 10001:10001
EXPOSE 8080 9090
ENTRYPOINT ["tini", "--", "framewright"]
CMD ["serve"]
# Set by the build (see the README): the version, the commit, the time (RFC 3339) and the repository.
ARG VERSION=0.0.0-dev
ARG REVISION=
ARG CREATED=
ARG SOURCE=
ARG NODE_RUNTIME_IMAGE
LABEL org.opencontainers.image.title="framewright" \
      org.opencontainers.image.description="Framewright API and operator: JSON movie documents in, MP4 out, behind a versioned HTTP API" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="${NODE_RUNTIME_IMAGE}"
