/**
 * A throwaway PostgreSQL server for tests, from Debian's `postgresql` package: `initdb` in a
 * temporary folder, `postgres` on a free port of 127.0.0.1 with its socket inside that folder
 * (no system service, nothing outside the folder), fsync off. Each call of `createDatabase` gives
 * a fresh database; `stop` ends the server and deletes the folder (an `exit` hook does it too, so
 * a failing test file leaves nothing running).
 *
 * `initdb` and `postgres` refuse to run as root. Run as root (CI and this machine's tests are),
 * the server's commands run as the `postgres` system user the Debian package creates, with a
 * folder it owns; run as anyone else, they run as that user.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** What a test prints when the binaries are missing: it fails with this, never passes. */
export const INSTALL_POSTGRES = "apt-get install -y postgresql";

export interface PostgresServer {
  /** A connection URI of the server's maintenance database (`postgres`). */
  uri: string;
  /**
   * Creates a database and returns its connection URI: empty, or with `template` a copy of that
   * database (CREATE DATABASE … TEMPLATE, a file copy: much faster than migrating anew).
   */
  createDatabase(options?: { template?: string }): Promise<string>;
  stop(): Promise<void>;
  /** Stops the server but keeps its data: clients see it gone (tests of what they report then). */
  pause(): Promise<void>;
  /** Starts a paused server again on the same port with the same data. */
  resume(): Promise<void>;
}

/** The newest Debian PostgreSQL's binaries (`/usr/lib/postgresql/<major>/bin`), or an error that says how to install them. */
export function postgresBinaries(root = "/usr/lib/postgresql"): string {
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((major) => existsSync(join(root, major, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) {
    throw new Error(`PostgreSQL's server binaries were not found in ${root}/*/bin: install them with \`${INSTALL_POSTGRES}\` (tests start their own server)`);
  }
  return join(root, majors[0]!, "bin");
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** As root, the `postgres` system user (initdb refuses root); otherwise the current user. */
function serverUser(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("postgres:"));
  if (!line) throw new Error(`running as root, the tests start PostgreSQL as the \`postgres\` user, which does not exist: \`${INSTALL_POSTGRES}\` creates it`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

const SUPERUSER = "chunkeval";

let databases = 0;

/** A new database on the server whose maintenance database is `serverUri`, named after this process so that several test processes never clash. */
async function createDatabaseOn(serverUri: string, options: { template?: string } = {}): Promise<string> {
  databases += 1;
  // The process id and a random part: one server serves a whole run, whose process ids recur.
  const name = `test_${process.pid}_${databases}_${randomBytes(4).toString("hex")}`;
  const client = new pg.Client({ connectionString: serverUri });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ""}`);
  } finally {
    await client.end();
  }
  const at = new URL(serverUri);
  at.pathname = `/${name}`;
  if (options.template) {
    // A copy keeps the template's data-directory id, which vector stores claim ownership by: each
    // database gets its own, as a freshly migrated one does.
    const copy = new pg.Client({ connectionString: at.toString() });
    await copy.connect();
    try {
      await copy.query(`UPDATE data_directory SET id = 'dd_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)`);
    } finally {
      await copy.end();
    }
  }
  return at.toString();
}

/** Set by scripts/run-tests.mjs: the run's one PostgreSQL server (its maintenance database's URI) and its migrated template database. */
export const RUN_POSTGRES_URI = "CHUNKEVAL_TEST_POSTGRES_URI";
export const RUN_POSTGRES_TEMPLATE = "CHUNKEVAL_TEST_POSTGRES_TEMPLATE";

/**
 * The test run's shared server when the runner started one, else a server of this process's own
 * (started on first use, stopped at exit). Shared: its databases are created here, but it cannot
 * be stopped or paused from a test (a test of what clients see when the server goes away starts
 * its own with startPostgres).
 */
let processServer: Promise<PostgresServer> | undefined;
export function testPostgres(): Promise<PostgresServer> {
  const runUri = process.env[RUN_POSTGRES_URI];
  if (!runUri) return (processServer ??= startPostgres());
  const shared = () => Promise.reject(new Error("the test run's shared PostgreSQL server is not a test's to stop or pause: use startPostgres()"));
  return Promise.resolve({ uri: runUri, createDatabase: (options) => createDatabaseOn(runUri, options), stop: shared, pause: shared, resume: shared });
}

/**
 * A fresh database with the metadata store's schema already in place: a copy of the run's template
 * when there is one, else empty (the store migrates it on open).
 */
export async function migratedTestDatabase(): Promise<string> {
  const template = process.env[RUN_POSTGRES_TEMPLATE];
  return (await testPostgres()).createDatabase(template ? { template } : {});
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const user = serverUser();
  const folder = mkdtempSync(join(tmpdir(), "chunkeval-pg-"));
  if (user.uid !== undefined) chownSync(folder, user.uid, user.gid!);
  const data = join(folder, "data");
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });

  const init = spawnSync(join(bin, "initdb"), ["-D", data, "-U", SUPERUSER, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"], {
    ...user,
    encoding: "utf8",
  });
  if (init.status !== 0) {
    removeFolder();
    throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.stderr || init.error?.message}`);
  }

  const launch = async (onPort: number): Promise<ChildProcess | null> => {
    const started = spawn(
      join(bin, "postgres"),
      [
        "-D",
        data,
        "-p",
        String(onPort),
        "-k",
        folder,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        // One server serves a whole test run: the lanes' processes each open pools of their own,
        // more at once than the default 100 connections allow.
        "-c",
        "max_connections=500",
      ],
      { ...user, stdio: ["ignore", "ignore", "pipe"] },
    );
    let log = "";
    started.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    if (await ready(started, () => log)) {
      // A server shared by a whole test file (or process) must not keep it alive once its tests
      // are done: the exit hook below stops it then.
      started.unref();
      (started.stderr as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
      return started;
    }
    lastLog = log;
    started.kill("SIGKILL");
    return null;
  };

  let running: ChildProcess | undefined;
  let port = 0;
  let lastLog = "";
  // The port is free when picked but another process may take it first: try another then.
  for (let attempt = 0; attempt < 5 && !running; attempt += 1) {
    port = await freePort();
    running = (await launch(port)) ?? undefined;
  }
  if (!running) {
    removeFolder();
    throw new Error(`PostgreSQL did not start: ${lastLog}`);
  }

  const alive = () => running!.exitCode === null && running!.signalCode === null;
  // Fast shutdown (SIGINT): sessions are ended, the server exits at once; fsync is off anyway.
  const shutDown = async () => {
    if (!alive()) return;
    // Referenced again: the caller waits for the exit, so the process must not end before it.
    running!.ref();
    const exited = new Promise((resolve) => running!.once("exit", resolve));
    running!.kill("SIGINT");
    await exited;
  };
  // At process exit nothing asynchronous runs: an immediate shutdown (SIGQUIT), a synchronous
  // wait of up to 5 s for the server to be gone, then the folder.
  const onExit = () => {
    if (alive() && running!.pid !== undefined) {
      running!.kill("SIGQUIT");
      spawnSync("timeout", ["5", "tail", `--pid=${running!.pid}`, "-f", "/dev/null"]);
    }
    removeFolder();
  };
  process.once("exit", onExit);

  const uri = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  return {
    uri,
    createDatabase: (options) => createDatabaseOn(uri, options),
    async stop() {
      process.off("exit", onExit);
      await shutDown();
      removeFolder();
    },
    async pause() {
      await shutDown();
    },
    async resume() {
      if (alive()) return;
      const again = await launch(port);
      if (!again) throw new Error(`PostgreSQL did not start again on port ${port}: ${lastLog}`);
      running = again;
    },
  };
}

/** Waits until the server accepts connections (true) or exits (false); one that does neither in 30 s is an error. */
async function ready(child: ChildProcess, log: () => string): Promise<boolean> {
  let exited = false;
  child.once("exit", () => (exited = true));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) return false;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`PostgreSQL did not become ready in 30 s: ${log()}`);
    }
    if (log().includes("database system is ready to accept connections")) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
