#!/bin/sh
# Hostile test bot: starts a sleeping descendant in a new session (setsid:
# out of the bot's process group), writes its pid to the file $1, then
# answers turns like echo.py.
setsid sh -c 'echo $$ > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 1000' sh "$1" </dev/null >/dev/null 2>&1 &
while IFS= read -r line; do
	turn=$(printf '%s\n' "$line" | sed -n 's/^{"type":"turn","turn":\([0-9]*\).*/\1/p')
	[ -z "$turn" ] && continue
	printf '{"cmd_list":["a 0 0 %s"]}\n' "$turn"
done
