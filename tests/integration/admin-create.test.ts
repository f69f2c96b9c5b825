import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { createUser, findUserByEmail, verifyLogin } from '#app/models/accounts/users.server.ts'
import { createOrPromoteAdmin } from '#app/models/accounts/users-admin.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'

const t = useTestDatabase()
const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')

function adminCreate(args: string[]) {
	return run(process.execPath, ['scripts/admin-create.ts', ...args], {
		cwd: root,
		env: { ...process.env, DATABASE_URL: t.url, NODE_ENV: 'development', LOG_LEVEL: 'silent' },
	})
}

async function auditFor(userId: string) {
	return t.db.selectFrom('audit_log').selectAll().where('entity_id', '=', userId).execute()
}

describe('createOrPromoteAdmin', () => {
	test('creates a confirmed admin with a generated password that works, and one audit row', async () => {
		const email = `new-admin-${randomUUID()}@example.com`
		const result = await createOrPromoteAdmin(t.db, { email: email.toUpperCase(), name: 'New Admin' })
		expect(result).toMatchObject({ email, created: true })
		expect(result.generatedPassword).toMatch(/^[\w-]{24}$/)
		const user = await findUserByEmail(t.db, email)
		expect(user).toMatchObject({ role: 'admin', name: 'New Admin' })
		expect(user?.email_confirmed_at).not.toBeNull()
		expect(await verifyLogin(t.db, email, result.generatedPassword!)).toEqual({ ok: true, userId: user!.id })
		expect((await auditFor(user!.id)).map((row) => row.action)).toEqual(['user.create'])
	})

	test('promotes and confirms an existing account, keeping its password unless one is given', async () => {
		const email = `existing-${randomUUID()}@example.com`
		const existing = await createUser(t.db, { email, name: 'Existing', password: 'original-password', confirmed: false })
		const result = await createOrPromoteAdmin(t.db, { email, name: 'Ignored Name' })
		expect(result).toEqual({ id: existing.id, email, created: false, generatedPassword: null })
		expect(await findUserByEmail(t.db, email)).toMatchObject({ role: 'admin', name: 'Existing' })
		expect(await verifyLogin(t.db, email, 'original-password')).toEqual({ ok: true, userId: existing.id })

		await createOrPromoteAdmin(t.db, { email, name: 'Existing', password: 'replaced-password' })
		expect(await verifyLogin(t.db, email, 'replaced-password')).toEqual({ ok: true, userId: existing.id })
		expect((await auditFor(existing.id)).map((row) => row.action)).toEqual(['user.promote', 'user.promote'])
	})
})

describe('npm run admin:create', () => {
	test('creates an admin and prints the generated password', async () => {
		const email = `script-${randomUUID()}@example.com`
		const { stdout } = await adminCreate(['--email', email, '--name', 'Script Admin'])
		expect(stdout).toContain(`Created admin ${email}.`)
		const password = /Generated password \(shown once\): (\S+)/.exec(stdout)?.[1]
		expect(password).toBeTruthy()
		const user = await findUserByEmail(t.db, email)
		expect(await verifyLogin(t.db, email, password!)).toEqual({ ok: true, userId: user!.id })
		expect(user?.role).toBe('admin')
	})

	test('promotes an existing account with the given password and prints no password', async () => {
		const email = `script-existing-${randomUUID()}@example.com`
		await createUser(t.db, { email, name: 'Student', password: 'student-password', confirmed: true })
		const { stdout } = await adminCreate(['--email', email, '--name', 'Student', '--password', 'a-new-password'])
		expect(stdout).toContain(`${email} is now an admin.`)
		expect(stdout).not.toContain('Generated password')
		expect((await findUserByEmail(t.db, email))?.role).toBe('admin')
		expect((await verifyLogin(t.db, email, 'a-new-password')).ok).toBe(true)
	})

	test('refuses bad arguments with the usage line and exit code 1', async () => {
		const failure = await adminCreate(['--email', 'not-an-email', '--name', 'X']).catch((error: { code: number; stderr: string }) => error)
		expect(failure).toMatchObject({ code: 1 })
		expect((failure as { stderr: string }).stderr).toContain('Please enter a valid email address')
		expect((failure as { stderr: string }).stderr).toContain('Usage: npm run admin:create')
	})
})
