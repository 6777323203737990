#!/bin/sh
# CGI behind every protected path of the interop servers: answers any method (GET, POST,
# PUT, DELETE, ...) with 200 and the text "<METHOD> <REMOTE_USER>[ <request body>]", so a
# test sees that the server authenticated the user and that a body survived the challenge.
body=$(cat)
printf 'Content-Type: text/plain; charset=utf-8\r\n\r\n'
printf '%s %s' "$REQUEST_METHOD" "$REMOTE_USER"
if [ -n "$body" ]; then printf ' %s' "$body"; fi
