/**
 * The databases a run measures the server on: the embedded PostgreSQL always, an external one when
 * DATABASE_URL is set (a throwaway database on it); each seeded by scripts/bench/prepare.ts and
 * removed at the end.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { log } from './log.ts'
import { skip } from './options.ts'
import { run } from './processes.ts'

export type Target = { kind: 'embedded' | 'postgres'; env: NodeJS.ProcessEnv; dataDir: string; drop?: () => Promise<void> }

/** What scripts/bench/prepare.ts prints once it has seeded a target. */
export type Prepared = {
	seedSeconds: number
	studentCookie: string
	adminCookie: string
	courseId: number
	enrollment: { id: number; status: string }
}

export async function createTargets(): Promise<Target[]> {
	const targets: Target[] = []
	// TRUST_PROXY: the stream clients are 10,000 visitors behind a proxy (X-Forwarded-For), each with its own address.
	const base = { NODE_ENV: 'production', ALLOW_EMBEDDED_DEFAULTS: 'true', LOG_LEVEL: 'silent', HOST: '127.0.0.1', TRUST_PROXY: '1' }
	if (!skip('embedded')) {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-embedded-'))
		// As root the embedded server runs as the user postgres, which must reach the folder.
		fs.chmodSync(dataDir, 0o755)
		targets.push({ kind: 'embedded', dataDir, env: { ...base, DATA_DIR: dataDir, DATABASE_URL: '' } })
	}
	const url = process.env.DATABASE_URL
	if (url && !skip('postgres')) {
		const name = `bench_${randomBytes(4).toString('hex')}`
		const admin = new pg.Client({ connectionString: url })
		await admin.connect()
		await admin.query(`CREATE DATABASE ${name}`)
		await admin.end()
		const databaseUrl = new URL(url)
		databaseUrl.pathname = `/${name}`
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-postgres-'))
		targets.push({
			kind: 'postgres',
			dataDir,
			env: { ...base, DATA_DIR: dataDir, DATABASE_URL: databaseUrl.toString() },
			drop: async () => {
				const client = new pg.Client({ connectionString: url })
				await client.connect()
				await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
				await client.end()
			},
		})
	}
	return targets
}

export async function prepareTarget(target: Target) {
	log(`seeding ${target.kind} (scale data set)`)
	const output = await run(process.execPath, ['scripts/bench/prepare.ts'], target.env)
	return JSON.parse(output.trim().split('\n').at(-1)!) as Prepared
}

export async function removeTarget(target: Target) {
	await target.drop?.().catch((error: unknown) => log(`could not drop the ${target.kind} database: ${String(error)}`))
	fs.rmSync(target.dataDir, { recursive: true, force: true })
}
