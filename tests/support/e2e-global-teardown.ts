import { dropDatabase } from './postgres.ts'

export default async function globalTeardown() {
	const name = process.env.E2E_DATABASE_NAME
	// The web server is stopped after this hook; FORCE ends its connections.
	if (name) await dropDatabase(name)
}
