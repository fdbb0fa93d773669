#!/usr/bin/env bash
# Installs and serves the three apps of docs/realapps-findings-3.md on loopback, under DIR (default
# /tmp/phonewire-round3): Flask-Admin on 8741, Swagger UI on 8742, Wagtail's admin on 8743 (FLASKADMIN_PORT,
# SWAGGER_PORT, WAGTAIL_PORT move them; pass the matching *_URL to the repro scripts).  Each runs in its own
# process group; their pids go to DIR/*.pid (stop them with `kill -- -PID`, one by one).  Registries only: PyPI
# for Flask-Admin and Wagtail (each in its own venv), npm for swagger-ui-dist.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DIR="${1:-/tmp/phonewire-round3}"
mkdir -p "$DIR" && cd "$DIR"
FA_PORT="${FLASKADMIN_PORT:-8741}" W_PORT="${WAGTAIL_PORT:-8743}"
export SWAGGER_PORT="${SWAGGER_PORT:-8742}"  # swagger_site.py writes it into the spec's server URL
pip_q() { "$1/bin/python" -m pip install -q --disable-pip-version-check "${@:2}"; }

[ -x fenv/bin/python ] || { python3 -m venv fenv && pip_q fenv "flask-admin==2.2.1" flask-sqlalchemy wtforms; }
[ -x wenv/bin/wagtail ] || { python3 -m venv wenv && pip_q wenv "wagtail==8.0.1"; }
[ -d node/node_modules/swagger-ui-dist ] || { mkdir -p node && (cd node && npm init -y >/dev/null &&
    npm install --no-audit --no-fund --loglevel=error swagger-ui-dist); }

python3 "$HERE/swagger_site.py" node/node_modules/swagger-ui-dist swagger
if [ ! -f wsite/manage.py ]; then
    mkdir -p wsite && (cd wsite && ../wenv/bin/wagtail start mysite . &&
        cp "$HERE/wagtail_home_models.py" home/models.py &&
        ../wenv/bin/python manage.py makemigrations home -v0 && ../wenv/bin/python manage.py migrate -v0 &&
        DJANGO_SUPERUSER_PASSWORD=pass1234 ../wenv/bin/python manage.py createsuperuser --noinput \
            --username admin --email admin@example.com &&
        ../wenv/bin/python manage.py shell -c "
from home.models import HomePage, ArticlePage
home = HomePage.objects.first()
for i in range(1, 61):
    home.add_child(instance=ArticlePage(title=f'Article {i:02d}', slug=f'article-{i:02d}', category='news'))
")
fi

serve() {  # NAME CMD...: start in a new session (own process group), remember the pid
    local name=$1; shift
    setsid "$@" >"$DIR/$name.log" 2>&1 &
    echo $! >"$DIR/$name.pid"
}
BOOKS_DB="$DIR/books.sqlite" serve flaskadmin fenv/bin/python "$HERE/flaskadmin_books.py" "$FA_PORT"
(cd swagger && serve swagger python3 -m http.server --bind 127.0.0.1 "$SWAGGER_PORT")
(cd wsite && serve wagtail ../wenv/bin/python manage.py runserver "127.0.0.1:$W_PORT" --noreload)
for port in "$FA_PORT" "$SWAGGER_PORT" "$W_PORT"; do
    for _ in $(seq 1 60); do
        python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
        sleep 0.5
    done
done
echo "round3: Flask-Admin http://127.0.0.1:$FA_PORT/admin/book/  Swagger UI http://127.0.0.1:$SWAGGER_PORT/index.html" \
     "Wagtail http://127.0.0.1:$W_PORT/admin/ (admin / pass1234); pids in $DIR/*.pid"
