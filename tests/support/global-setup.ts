import type { TestProject } from 'vitest/node'
import { migrateJobSchema } from '#app/services/jobs/runner.server.ts'
import { migrateToLatest, openDatabase } from '#app/utils/db.server.ts'
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from './postgres.ts'
import { ensureTestPostgres } from './test-postgres-server.ts'

declare module 'vitest' {
	export interface ProvidedContext {
		templateDatabase: string
	}
}

/**
 * Migrates one template database per run; each test file then copies it into
 * a database of its own (CREATE DATABASE … TEMPLATE), so files never share data.
 */
export default async function setup(project: TestProject) {
	// `npm test` has chosen the server already; a direct `vitest run` chooses here.
	const server = await ensureTestPostgres()
	const template = randomDatabaseName('app_test_template')
	await createDatabase(template)
	const handle = await openDatabase({ databaseUrl: databaseUrl(template) })
	await migrateToLatest(handle.db)
	await handle.close()
	await migrateJobSchema(databaseUrl(template))
	project.provide('templateDatabase', template)
	return async () => {
		await dropDatabase(template)
		await server.stop()
	}
}
