import fs from 'node:fs'
import { nuErrors } from './nu-checker.ts'
import { dropDatabase } from './postgres.ts'

export default async function globalTeardown() {
	const name = process.env.E2E_DATABASE_NAME
	const documents = process.env.E2E_HTML_DIR
	try {
		if (documents && fs.existsSync(documents)) {
			const { checked, errors } = await nuErrors(documents)
			console.log(`Nu Html Checker: ${checked} distinct documents, ${errors.length} errors`)
			if (errors.length > 0) throw new Error(`The Nu Html Checker found errors:\n${errors.join('\n')}`)
		}
	} finally {
		if (documents) fs.rmSync(documents, { recursive: true, force: true })
		// The web server is stopped after this hook; FORCE ends its connections.
		if (name) await dropDatabase(name)
	}
}
