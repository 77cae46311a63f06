#!/usr/bin/env python3
"""The HTTP API the fetch tests talk to: answers as a scenario file says, on 127.0.0.1 only.

  python3 server.py SCENARIO LOG

SCENARIO is a JSON object {"routes": {TARGET: [RESPONSE, ...]}}. TARGET is a request target as
sent (`/users`, `/users?page=2`); its responses are given in turn, the last one again and again.
A RESPONSE holds, all optional:

  status        the status code (200)
  headers       {name: value or [values]}: a list sends the header once per value
  body          the body text
  etag          sent as ETag; a request whose If-None-Match is this value gets 304 instead
  lastModified  sent as Last-Modified; a request whose If-Modified-Since is this value gets 304
  delay         seconds to wait before answering
  truncate      send only this many bytes of the body (with the whole body's Content-Length),
                then close the connection

`{base}` in header values and bodies stands for http://127.0.0.1:PORT. A target no route names
gets 404. Every request is appended to LOG as a JSON line {"target", "headers" (lower-cased
names), "time"} before it is answered. Once listening, the server prints `port N` on stdout. It
ends with the process that started it.
"""
import http.server
import json
import os
import socket
import sys
import threading
import time


def main():
    scenario_path, log_path = sys.argv[1], sys.argv[2]
    with open(scenario_path, encoding="utf-8") as file:
        routes = json.load(file)["routes"]
    served = {}
    lock = threading.Lock()
    log = open(log_path, "a", encoding="utf-8")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def handle_one_request(self):
            try:
                super().handle_one_request()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        def do_GET(self):
            base = "http://127.0.0.1:%d" % self.server.server_address[1]
            with lock:
                log.write(json.dumps({"target": self.path, "time": time.time(),
                                      "headers": {k.lower(): v for k, v in self.headers.items()}}) + "\n")
                log.flush()
                responses = routes.get(self.path)
                if responses is None:
                    response = {"status": 404, "body": '{"message": "no such route"}'}
                else:
                    count = served.get(self.path, 0)
                    served[self.path] = count + 1
                    response = responses[min(count, len(responses) - 1)]
            time.sleep(response.get("delay", 0))
            status = response.get("status", 200)
            headers = []
            for name, value in response.get("headers", {}).items():
                for one in value if isinstance(value, list) else [value]:
                    headers.append((name, one.replace("{base}", base)))
            etag, modified = response.get("etag"), response.get("lastModified")
            if etag is not None:
                headers.append(("ETag", etag))
            if modified is not None:
                headers.append(("Last-Modified", modified))
            body = response.get("body", "").replace("{base}", base).encode()
            if (etag is not None and self.headers.get("If-None-Match") == etag) or \
                    (modified is not None and self.headers.get("If-Modified-Since") == modified):
                status, body = 304, b""
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if "truncate" in response:
                self.wfile.write(body[:response["truncate"]])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            else:
                self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # A server whose test process died ends too.
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
