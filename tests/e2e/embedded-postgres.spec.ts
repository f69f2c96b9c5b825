/**
 * The app on its embedded PostgreSQL, as `npm start` and the single container run it: the
 * operator's commands work while it serves, and a second server on the same data folder
 * stops with one sentence. (The hard kill and restart: security-http.spec.ts, faults.)
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { dropServerDatabase, type PrivateServer, startServer } from '#tests/support/private-server.ts'
import { expect, test } from '../support/e2e.ts'

const root = path.resolve(import.meta.dirname, '../..')

function runScript(script: string, args: string[], env: Record<string, string>) {
	return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
		const child = spawn(process.execPath, [script, ...args], {
			cwd: root,
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		let stdout = ''
		let stderr = ''
		child.stdout!.on('data', (chunk) => (stdout += chunk))
		child.stderr!.on('data', (chunk) => (stderr += chunk))
		child.once('exit', (code) => resolve({ code, stdout, stderr }))
	})
}

test.describe('the embedded PostgreSQL while the app serves', () => {
	test.describe.configure({ mode: 'serial' })
	let server: PrivateServer
	let env: Record<string, string>

	test.beforeAll(async () => {
		test.setTimeout(120_000)
		server = await startServer({ database: 'embedded', env: { WEB_CONCURRENCY: '2' } })
		env = { DATA_DIR: server.dataDir, NODE_ENV: 'production', ALLOW_EMBEDDED_DEFAULTS: 'true', DATABASE_URL: '' }
	})
	test.afterAll(async () => {
		await server?.stop('SIGTERM')
		if (server) await dropServerDatabase(server)
	})

	test('admin:create works against the running server, which signs the new admin in at once', async () => {
		const created = await runScript(
			'scripts/admin-create.ts',
			['--email', 'operator@example.com', '--name', 'The Operator', '--password', 'operator-password-1'],
			env,
		)
		expect(created.stderr).toBe('')
		expect(created).toMatchObject({ code: 0, stdout: 'Created admin operator@example.com.\n' })
		const login = await fetch(`${server.url}/login`, {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: server.url, 'X-Forwarded-For': '203.0.113.40' },
			body: new URLSearchParams({ email: 'operator@example.com', password: 'operator-password-1' }),
		})
		expect(login.status).toBe(302)
		const cookie = login.headers.get('Set-Cookie')!.split(';')[0]!
		const admin = await fetch(`${server.url}/dashboard/admin/courses`, { headers: { Cookie: cookie }, redirect: 'manual' })
		expect(admin.status).toBe(200)
	})

	test('db:migrate and db:seed work against the running server', async () => {
		const migrated = await runScript('scripts/migrate.ts', [], env)
		expect(migrated).toMatchObject({ code: 0, stdout: 'The database is at the latest migration.\n', stderr: '' })
		const seeded = await runScript('scripts/seed.ts', [], env)
		expect(seeded).toMatchObject({ code: 0, stdout: 'Database already has data; nothing seeded.\n', stderr: '' })
	})

	test('a second server on the same data folder stops with one sentence naming the first', async () => {
		const second = await runScript('scripts/server.ts', [], { ...env, PORT: String(server.port + 1) })
		expect(second.code).toBe(1)
		expect(second.stderr).toBe(
			`The embedded database in ${path.join(server.dataDir, 'postgres')} is in use by another server, process ${server.process.pid} (node scripts/server.ts): stop it first, or set DATABASE_URL to use another PostgreSQL server.\n`,
		)
		// The first server goes on serving.
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
	})
})
