#!/bin/sh
# Hostile test bot: forks a sleeping grandchild (which inherits stdout and
# stderr), then answers turns like echo.py. With the argument "crash" it
# exits with status 4 on the second turn message, leaving the grandchild.
sleep 1000 &
n=0
while IFS= read -r line; do
	turn=$(printf '%s\n' "$line" | sed -n 's/^{"type":"turn","turn":\([0-9]*\).*/\1/p')
	[ -z "$turn" ] && continue
	n=$((n + 1))
	if [ "$1" = crash ] && [ "$n" -ge 2 ]; then
		exit 4
	fi
	printf '{"cmd_list":["a 0 0 %s"]}\n' "$turn"
done
