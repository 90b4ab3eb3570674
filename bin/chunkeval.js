#!/usr/bin/env node
import "../dist/transports/cli/main.js";
