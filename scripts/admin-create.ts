/**
 * `npm run admin:create -- --email you@example.com --name "Your Name" [--password …]`:
 * creates a confirmed admin account, or promotes an existing one (docs/decisions/013).
 */
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { createOrPromoteAdmin } from '#app/models/accounts/users-admin.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { EmailSchema, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, NameSchema } from '#app/utils/user-validation.ts'
import { withMigratedDatabase } from './lib/database-server.ts'
import { exitWithError } from './lib/processes.ts'

const usage = 'Usage: npm run admin:create -- --email you@example.com --name "Your Name" [--password secret]'

const ArgsSchema = z.object({
	email: EmailSchema,
	name: NameSchema,
	password: z
		.string()
		.min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
		.max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`)
		.optional(),
})

function fail(message: string): never {
	console.error(`${message}\n${usage}`)
	process.exit(1)
}

let values: Record<string, unknown>
try {
	values = parseArgs({
		options: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } },
		strict: true,
	}).values
} catch (error) {
	fail(error instanceof Error ? error.message : String(error))
}

const parsed = ArgsSchema.safeParse(values)
if (!parsed.success) fail(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n'))

await withMigratedDatabase(getEnv(), async (handle) => {
	const result = await createOrPromoteAdmin(handle.db, parsed.data)
	console.log(result.created ? `Created admin ${result.email}.` : `${result.email} is now an admin.`)
	if (result.generatedPassword) console.log(`Generated password (shown once): ${result.generatedPassword}`)
}).catch(exitWithError)
