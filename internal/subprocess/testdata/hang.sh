#!/bin/sh
# Hostile test bot: never reads its input and never answers.
sleep 1000
