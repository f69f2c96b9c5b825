import { Kysely, type LogEvent, PostgresDialect, sql, type Transaction } from 'kysely'
import { Migrator } from 'kysely/migration'
import pg from 'pg'
import Cursor from 'pg-cursor'
import { migrations } from '#db/migrations/index.ts'
import type { Database } from '#db/types.ts'
import { processWide } from './process-wide.server.ts'

const DATE_OID = 1082
const INT8_OID = 20

/** Reads `date` as 'YYYY-MM-DD' (no time-zone shift) and `bigint` counts as numbers. */
pg.types.setTypeParser(DATE_OID, (value) => value)
pg.types.setTypeParser(INT8_OID, (value) => Number(value))

export type DatabaseHandle = {
	db: Kysely<Database>
	/** Subscribes to a PostgreSQL NOTIFY channel; returns the unsubscribe function. */
	listen: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>
	close: () => Promise<void>
}

export type DatabaseOptions = {
	databaseUrl: string
	poolMax?: number
	onQuery?: (event: LogEvent) => void
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
	const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolMax ?? 10 })
	// A client that loses its server (restart, failover) emits 'error', which unheard ends the
	// process. The pool listens only while the client is idle; while a request holds it, the
	// request's statements fail on their own, so this listener only keeps the process alive
	// (the pool drops the broken client when it is released).
	pool.on('error', (error) => console.error('[db] idle client error', error.message))
	pool.on('connect', (client) => client.on('error', () => {}))
	// The cursor lets a query's `.stream()` read its rows a chunk at a time (the CSV exports).
	const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }), log: options.onQuery })
	return {
		db,
		listen: (channel, onPayload) => listenWithPool(options.databaseUrl, channel, onPayload),
		close: () => db.destroy(),
	}
}

/** One dedicated connection per subscription, re-established when the server goes away. */
async function listenWithPool(url: string, channel: string, onPayload: (payload: string) => void) {
	let client: pg.Client | undefined
	let stopped = false
	let retry: NodeJS.Timeout | undefined
	const connect = async () => {
		const next = new pg.Client({ connectionString: url })
		next.on('notification', (message) => {
			if (message.channel === channel) onPayload(message.payload ?? '')
		})
		next.on('error', () => scheduleReconnect())
		next.on('end', () => scheduleReconnect())
		await next.connect()
		await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
		client = next
	}
	const scheduleReconnect = () => {
		if (stopped || retry) return
		client = undefined
		retry = setTimeout(() => {
			retry = undefined
			connect().catch(() => scheduleReconnect())
		}, 1000)
	}
	await connect()
	return async () => {
		stopped = true
		if (retry) clearTimeout(retry)
		await client?.end().catch(() => {})
	}
}

/** One key for every schema change of the app (its own migrations and the job system's). */
const MIGRATION_LOCK = 'cohort-platform migrations'

/**
 * Runs `change` while this process holds a PostgreSQL advisory lock that every process and
 * container migrating the same database takes: Kysely's migrator reads the catalog before it
 * takes its own lock, and another process's DDL (the job system's schema) under its feet made
 * it fail.
 */
export async function withMigrationLock<T>(db: Kysely<Database>, change: (connection: Kysely<Database>) => Promise<T>) {
	return db.connection().execute(async (connection) => {
		await sql`SELECT pg_advisory_lock(hashtext(${MIGRATION_LOCK}))`.execute(connection)
		try {
			return await change(connection)
		} finally {
			await sql`SELECT pg_advisory_unlock(hashtext(${MIGRATION_LOCK}))`.execute(connection)
		}
	})
}

export async function migrateToLatest(db: Kysely<Database>) {
	const { error, results } = await withMigrationLock(db, (connection) =>
		new Migrator({ db: connection, provider: { getMigrations: async () => migrations } }).migrateToLatest(),
	)
	for (const result of results ?? []) {
		if (result.status === 'Error') console.error(`[db] migration ${result.migrationName} failed`)
	}
	if (error) throw error
	return results ?? []
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was aborted whole and may simply run again. */
const RETRYABLE_CODES = new Set(['40P01', '40001'])
const TRANSACTION_ATTEMPTS = 5

function isRetryable(error: unknown) {
	return typeof error === 'object' && error !== null && 'code' in error && RETRYABLE_CODES.has(String(error.code))
}

/**
 * `db.transaction().execute(work)`, run again (up to five times, after a short random wait) when
 * PostgreSQL aborts it for a deadlock or a serialization failure, so such an abort never reaches
 * a visitor (docs/decisions/040). The work must be safe to repeat: database writes only, or calls
 * made idempotent (a provider call with an idempotency key).
 */
export async function transaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await db.transaction().execute(work)
		} catch (error) {
			if (!isRetryable(error) || attempt >= TRANSACTION_ATTEMPTS) throw error
			await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt))
		}
	}
}

type Registry = { handle?: DatabaseHandle; opening?: Promise<DatabaseHandle> }

/** One handle per process, kept on globalThis so dev reloads reuse it. */
const registry = processWide<Registry>('__appDatabase', () => ({}))

export async function initDatabase(options: DatabaseOptions) {
	if (registry.handle) return registry.handle
	registry.opening ??= (async () => {
		const handle = await openDatabase(options)
		await migrateToLatest(handle.db)
		registry.handle = handle
		return handle
	})()
	return registry.opening
}

/** Lets a test run app code (loaders, actions) against its own database. */
export function setDatabaseHandle(handle: DatabaseHandle | undefined) {
	registry.handle = handle
	registry.opening = handle ? Promise.resolve(handle) : undefined
}

export function getDatabaseHandle(): DatabaseHandle {
	if (!registry.handle) throw new Error('The database is not initialised yet (call initDatabase at start-up).')
	return registry.handle
}

/** The application's Kysely instance. */
export function getDb(): Kysely<Database> {
	return getDatabaseHandle().db
}

export async function closeDatabase() {
	const handle = registry.handle
	registry.handle = undefined
	registry.opening = undefined
	await handle?.close()
}
