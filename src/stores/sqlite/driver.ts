import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

const NODE_MAJOR = Number(process.versions.node.split(".")[0]);

/**
 * better-sqlite3 for the Node that is running. From Node 22 on: better-sqlite3 13, a Node-API
 * module prebuilt inside its npm package (nothing compiled or downloaded at install). Node 20,
 * which 13 does not support (its binary crashes there), gets better-sqlite3 12 under the alias
 * `better-sqlite3-12`, compiled at install. 12 cannot serve Node 24: built against Node 24.19+
 * headers, a statement of its that is garbage collected outside JavaScript aborts the process
 * ("Assertion failed: (env) != nullptr" in node::RemoveEnvironmentCleanupHook: serve died at start-up).
 */
function loadDriver(): typeof BetterSqlite3 {
  const require = createRequire(import.meta.url);
  if (NODE_MAJOR >= 22) return require("better-sqlite3");
  try {
    return require("better-sqlite3-12");
  } catch (error) {
    throw new Error(
      `chunkeval on Node ${process.versions.node} needs better-sqlite3 12, compiled when it is installed (python3, make and a C++ compiler); ` +
        `it could not be loaded (${(error as Error).message.split("\n")[0]}). Run \`npm rebuild better-sqlite3-12\` to see why, or use Node 22 or later.`,
    );
  }
}

export const Database: typeof BetterSqlite3 = loadDriver();
