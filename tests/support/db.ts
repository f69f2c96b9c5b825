import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, inject } from 'vitest'
import { type DatabaseHandle, openDatabase, setDatabaseHandle } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from './postgres.ts'

export type TestDatabase = { handle: DatabaseHandle; db: Kysely<Database>; url: string; name: string }

/** A fresh, migrated PostgreSQL database of this test file's own; dropped afterwards. */
export async function createTestDatabase(): Promise<TestDatabase & { drop: () => Promise<void> }> {
	const name = randomDatabaseName('app_test')
	await createDatabase(name, inject('templateDatabase'))
	const url = databaseUrl(name)
	const handle = await openDatabase({ databaseUrl: url })
	return {
		handle,
		db: handle.db,
		url,
		name,
		drop: async () => {
			await handle.close()
			await dropDatabase(name)
		},
	}
}

/**
 * Gives the file its own database and makes it the app's database, so
 * loaders and actions called directly use it.
 */
export function useTestDatabase() {
	const holder = {} as TestDatabase
	let drop: (() => Promise<void>) | undefined
	beforeAll(async () => {
		const created = await createTestDatabase()
		Object.assign(holder, created)
		drop = created.drop
		setDatabaseHandle(created.handle)
	})
	afterAll(async () => {
		setDatabaseHandle(undefined)
		await drop?.()
	})
	return holder
}

/** Deletes every row of the tables, one table after another in the order given (those whose rows others point at last). */
export async function emptyTables(db: Kysely<Database>, tables: Array<keyof Database & string>) {
	for (const table of tables) await db.deleteFrom(table).execute()
}

/** Runs `run` while the tables cannot be reached, as during a database fault, then puts them back. */
export async function withTablesUnavailable<T>(db: Kysely<Database>, tables: string[], run: () => Promise<T>) {
	for (const table of tables) await sql`ALTER TABLE ${sql.table(table)} RENAME TO ${sql.table(`${table}_unavailable`)}`.execute(db)
	try {
		return await run()
	} finally {
		for (const table of tables) await sql`ALTER TABLE ${sql.table(`${table}_unavailable`)} RENAME TO ${sql.table(table)}`.execute(db)
	}
}
