/**
 * A production server of a test's own (built app, scripts/server.ts) on its
 * own database and port, for the HTTP-level security and fault tests: nothing
 * else writes to its database, so a before/after snapshot is exact, and the
 * test may stop, kill and restart it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from '#tests/support/postgres.ts'
import { runningEmbeddedPostgresUrl, stopLeftoverEmbeddedPostgres } from '../../scripts/lib/embedded-postgres.ts'

const root = path.resolve(import.meta.dirname, '../..')

export async function freePort() {
	const server = net.createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.address() as net.AddressInfo
	await new Promise((resolve) => server.close(resolve))
	return port
}

export type PrivateServer = {
	url: string
	port: number
	/** The PostgreSQL URL: the test's own database, or the embedded server's once it runs. */
	databaseUrl?: string
	dataDir: string
	process: ChildProcess
	output: () => string
	/** Sends a signal and resolves with the exit code. */
	stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

type StartOptions = {
	/** 'postgres' creates a fresh database on the test server; 'embedded' runs the embedded default in dataDir, as `npm start` does. */
	database: 'postgres' | 'embedded'
	/** Reuse a database URL (e.g. one behind a proxy) instead of creating one. */
	databaseUrl?: string
	dataDir?: string
	port?: number
	env?: Record<string, string>
}

export async function startServer(options: StartOptions): Promise<PrivateServer> {
	const port = options.port ?? (await freePort())
	const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'security-server-'))
	// As root the embedded server runs as the user postgres, which must reach the folder.
	fs.chmodSync(dataDir, 0o755)
	let url: string | undefined
	if (options.database === 'postgres') {
		url = options.databaseUrl
		if (!url) {
			const name = randomDatabaseName('app_security')
			await createDatabase(name)
			url = databaseUrl(name)
		}
	}
	const env: NodeJS.ProcessEnv = {
		...process.env,
		NODE_ENV: 'production',
		ALLOW_EMBEDDED_DEFAULTS: 'true',
		PORT: String(port),
		HOST: '127.0.0.1',
		APP_URL: `http://localhost:${port}`,
		DATA_DIR: dataDir,
		TRUST_PROXY: '1',
		LOG_LEVEL: 'warn',
		// One process, which the fault tests kill and restart; tests/e2e/cluster.spec.ts runs several.
		WEB_CONCURRENCY: '1',
		...options.env,
	}
	if (url) env.DATABASE_URL = url
	else delete env.DATABASE_URL
	let log = ''
	const child = spawn(process.execPath, ['scripts/server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
	child.stdout!.on('data', (chunk) => (log += chunk))
	child.stderr!.on('data', (chunk) => (log += chunk))
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
	const base = `http://localhost:${port}`
	const deadline = Date.now() + 60_000
	for (;;) {
		if (child.exitCode !== null) throw new Error(`The server exited while starting:\n${log}`)
		const healthy = await fetch(`${base}/healthz`).then(
			(response) => response.ok,
			() => false,
		)
		if (healthy) break
		if (Date.now() > deadline) throw new Error(`The server did not start:\n${log}`)
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
	return {
		url: base,
		port,
		databaseUrl: url ?? runningEmbeddedPostgresUrl(dataDir),
		dataDir,
		process: child,
		output: () => log,
		stop: (signal = 'SIGTERM') => {
			if (child.exitCode === null && child.signalCode === null) child.kill(signal)
			return exited
		},
	}
}

/** Drops the database and data directory of a stopped server (and an embedded server a SIGKILL left running). */
export async function dropServerDatabase(server: PrivateServer) {
	await stopLeftoverEmbeddedPostgres(server.dataDir)
	const embedded = fs.existsSync(path.join(server.dataDir, 'postgres'))
	fs.rmSync(server.dataDir, { recursive: true, force: true })
	if (server.databaseUrl && !embedded) await dropDatabase(new URL(server.databaseUrl).pathname.slice(1))
}

/**
 * A fingerprint of every table: its row count and a hash of its rows. Left
 * out: rate_limits (a refused request still counts against a limit)
 * and sessions.last_seen_at (reading a page refreshes it, by design).
 */
export async function snapshot(url: string) {
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		const tables = await client.query<{ name: string }>(
			`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
		)
		const result: Record<string, string> = {}
		for (const { name } of tables.rows) {
			if (name === 'rate_limits') continue
			const columns = name === 'sessions' ? 'ROW(id, user_id, created_at, expires_at)' : 't'
			const row = await client.query<{ count: string; hash: string | null }>(
				`SELECT count(*) AS count, md5(string_agg(${columns}::text, '|' ORDER BY ${columns}::text)) AS hash FROM "${name}" t`,
			)
			result[name] = `${row.rows[0]!.count}:${row.rows[0]!.hash ?? ''}`
		}
		return result
	} finally {
		await client.end()
	}
}

/** A TCP proxy in front of PostgreSQL that a test can take down and bring back. */
export async function startTcpProxy(target: { host: string; port: number }) {
	const sockets = new Set<net.Socket>()
	let server: net.Server | undefined
	const port = await freePort()
	async function up() {
		server = net.createServer((client) => {
			const upstream = net.connect(target.port, target.host)
			for (const socket of [client, upstream]) {
				sockets.add(socket)
				socket.on('close', () => sockets.delete(socket))
				socket.on('error', () => socket.destroy())
			}
			client.pipe(upstream).pipe(client)
		})
		await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
	}
	async function down() {
		const closing = new Promise((resolve) => server?.close(resolve))
		for (const socket of sockets) socket.destroy()
		await closing
	}
	await up()
	return { port, up, down }
}
