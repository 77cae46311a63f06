#!/usr/bin/env python3
"""A paged JSON API on this machine, for trying `jsonimport fetch` (README, "Fetching from HTTP APIs").

  python3 Scripts/example-api.py [--port 8080] [--payload Examples/github/users.json] [--per-page 2]
                                 [--path /users]

Serves the records of PAYLOAD (a JSON array) at http://127.0.0.1:PORT/PATH in pages:

  GET /users                 the first page (?page=N for page N, ?per_page=M for pages of M)
                             with `Link: <…?page=2>; rel="next"` while there are more pages,
                             an `ETag` per page, answering `If-None-Match` with 304 Not Modified
  GET /users/cursor          the same pages as {"data": [...], "next_cursor": "..."}, the next
                             page asked for with ?cursor=...
  POST /users/touch?id=N     changes the `name` of record N (pages holding it get a new ETag)

Listens on 127.0.0.1 only. --port 0 picks a free port. Prints the URL it serves once it listens.
"""
import argparse
import hashlib
import http.server
import json
import os
import sys
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class API:
    def __init__(self, records, per_page):
        self.records = records
        self.per_page = per_page
        self.cache = {}

    def page(self, number, per_page):
        """The body and ETag of page `number` (1-based), from a cache of encoded pages."""
        key = (number, per_page)
        if key not in self.cache:
            chunk = self.records[(number - 1) * per_page:number * per_page]
            body = json.dumps(chunk, ensure_ascii=False, separators=(",", ":")).encode()
            self.cache[key] = (body, '"%s"' % hashlib.sha1(body).hexdigest()[:16])
        return self.cache[key]

    def pages(self, per_page):
        return max(1, -(-len(self.records) // per_page))

    def touch(self, record_id):
        for record in self.records:
            if record.get("id") == record_id:
                record["name"] = (record.get("name") or "") + "!"
                self.cache.clear()
                return True
        return False


def handler(api, path):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            if url.path == path + "/touch" and query.get("id", [""])[0].isdigit():
                found = api.touch(int(query["id"][0]))
                return self.reply(204 if found else 404)
            self.reply(404)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            try:
                per_page = int(query.get("per_page", [api.per_page])[0])
                number = int(query.get("cursor" if url.path.endswith("/cursor") else "page", ["1"])[0])
            except ValueError:
                return self.reply(400, b'{"message":"page, cursor and per_page are numbers"}')
            if url.path not in (path, path + "/cursor") or per_page < 1 or number < 1:
                return self.reply(404, b'{"message":"not found"}')
            body, etag = api.page(number, per_page)
            last = api.pages(per_page)
            headers = [("Content-Type", "application/json"), ("ETag", etag)]
            if url.path.endswith("/cursor"):
                cursor = json.dumps(str(number + 1)) if number < last else "null"
                body = b'{"data":' + body + b',"next_cursor":' + cursor.encode() + b"}"
                etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
                headers[1] = ("ETag", etag)
            elif number < last:
                base = "http://%s%s?" % (self.headers.get("Host", "127.0.0.1"), path)
                extra = "&per_page=%d" % per_page if "per_page" in query else ""
                headers.append(("Link", '<%spage=%d%s>; rel="next", <%spage=%d%s>; rel="last"'
                                % (base, number + 1, extra, base, last, extra)))
            if self.headers.get("If-None-Match") == etag:
                return self.reply(304, headers=[h for h in headers if h[0] != "Content-Type"])
            self.reply(200, body, headers)

    return Handler


def main():
    parser = argparse.ArgumentParser(description="A paged JSON API on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--payload", default=os.path.join(ROOT, "Examples", "github", "users.json"))
    parser.add_argument("--per-page", type=int, default=2)
    parser.add_argument("--path", default="/users")
    args = parser.parse_args()
    with open(args.payload, encoding="utf-8") as file:
        records = json.load(file)
    if not isinstance(records, list):
        sys.exit("the payload must be a JSON array of records")
    api = API(records, args.per_page)
    for number in range(1, api.pages(args.per_page) + 1):
        api.page(number, args.per_page)  # encoded once, before the first request
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler(api, args.path))
    server.daemon_threads = True
    print("serving http://127.0.0.1:%d%s (%d records, %d pages)"
          % (server.server_address[1], args.path, len(records), api.pages(args.per_page)), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
