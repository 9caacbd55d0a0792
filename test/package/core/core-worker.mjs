// The core loaded inside a Node worker thread; posts the known answer back.
import * as core from "laminar-core";
import { parentPort } from "node:worker_threads";
import { knownAnswer } from "./known-answer.mjs";

parentPort.postMessage(await knownAnswer(core));
