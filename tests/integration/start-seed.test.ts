/**
 * `npm start` on a fresh folder: its command seeds the demo before the server (and its job runner)
 * ever ran, so the database it gets must already hold the job system's schema the seed writes to.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { LocalFileStorage } from '#app/services/storage/local.server.ts'
import { seedDemoData } from '#db/seed/demo.ts'
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from '#tests/support/postgres.ts'
import { withMigratedDatabase } from '../../scripts/lib/database-server.ts'

const name = randomDatabaseName('app_start')
let dataDir = ''

afterAll(async () => {
	await dropDatabase(name)
	if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

test('the demo seeds into an empty database, certificate mail and all', async () => {
	await createDatabase(name)
	dataDir = await mkdtemp(path.join(tmpdir(), 'start-seed-'))
	const storage = new LocalFileStorage(path.join(dataDir, 'files'))
	const seeded = await withMigratedDatabase({ DATABASE_URL: databaseUrl(name), DATA_DIR: dataDir }, async (handle) => {
		const { seeded } = await seedDemoData(handle.db, storage)
		const certificates = await handle.db.selectFrom('certificates').select('id').execute()
		return { seeded, certificates: certificates.length }
	})
	// Sam's for the finished course; Sam's and Sofia's for the mentorship's previous cohort.
	expect(seeded).toEqual({ seeded: true, certificates: 3 })
}, 120_000)
