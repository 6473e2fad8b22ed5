# One image for the API and the judge workers (docker-compose.yml).
FROM debian:12
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3 python3-venv make bubblewrap gcc g++ libc6-dev fp-compiler pypy3 \
      openjdk-17-jdk-headless nodejs npm ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/classjudge
COPY . .
RUN python3 -m venv .venv && .venv/bin/pip install --no-cache-dir -e . && touch .venv/.installed
# the pages' front-end files (htmx), exactly as package-lock.json pins them
RUN npm ci --ignore-scripts --no-audit --no-fund && touch node_modules/.installed
ENV PATH=/opt/classjudge/.venv/bin:$PATH
