// On node (node-platform.ts imports this file), the call's modules load with the library: a
// client's settings are merged and checked when it is made, as its blocks run (a bad one is a
// ConfigError from configure()), and its first request waits for no import.
import * as calls from './call-entry.js';
import { giveCallModules } from './call-modules.js';

giveCallModules(calls);
