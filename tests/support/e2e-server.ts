/**
 * Starts the built production server for the end-to-end tests on a fresh
 * PostgreSQL database of this run's own (dropped by the global teardown).
 */
import { spawn } from 'node:child_process'
import { e2eServerEnv } from './e2e-env.ts'
import { createDatabase, withAdminClient } from './postgres.ts'

const env = e2eServerEnv()
const name = process.env.E2E_DATABASE_NAME!
const exists = await withAdminClient(async (client) => {
	const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
	return (result.rowCount ?? 0) > 0
})
if (!exists) await createDatabase(name)

const server = spawn(process.execPath, ['scripts/server.ts'], {
	env: { ...process.env, ...env },
	stdio: 'inherit',
})
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
	process.on(signal, () => server.kill(signal))
}
server.on('exit', (code) => process.exit(code ?? 0))
