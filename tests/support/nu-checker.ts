/**
 * The W3C Nu Html Checker (vnu.jar from the vnu-jar package, on this machine's Java 17+) over
 * every distinct document the end-to-end tests loaded: the page fixture (e2e.ts) files each one
 * away, and the global teardown checks them all in one run of the checker (one JVM start).
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import vnuJar from 'vnu-jar'

/** Files a document (as the server sent it) under a name from its content, so each distinct one is checked once. */
export function fileDocument(directory: string, url: string, html: string, key: string) {
	const name = createHash('sha1').update(key).digest('hex')
	const file = path.join(directory, `${name}.html`)
	if (fs.existsSync(file)) return
	fs.writeFileSync(path.join(directory, `${name}.url`), url)
	fs.writeFileSync(file, html)
}

type NuMessage = { type: string; subType?: string; url: string; lastLine?: number; message: string; extract?: string }

/** Checks every filed document; answers one line per error, naming the page it was on. */
export async function nuErrors(directory: string) {
	const files = fs.readdirSync(directory).filter((name) => name.endsWith('.html'))
	if (files.length === 0) return { checked: 0, errors: [] }
	const { stdout, stderr } = await promisify(execFile)(
		process.env.JAVA ?? 'java',
		['-jar', String(vnuJar), '--skip-non-html', '--errors-only', '--exit-zero-always', '--format', 'json', '--stdout', directory],
		{ maxBuffer: 64 * 1024 * 1024 },
	)
	const { messages } = JSON.parse(stdout || stderr) as { messages: NuMessage[] }
	const errors = messages
		.filter((message) => message.type === 'error' || message.subType === 'fatal')
		.map((message) => {
			const file = decodeURIComponent(new URL(message.url).pathname)
			const page = fs.readFileSync(file.replace(/\.html$/, '.url'), 'utf8')
			return `${page} line ${message.lastLine ?? '?'}: ${message.message} [${(message.extract ?? '').trim().slice(0, 120)}]`
		})
	return { checked: files.length, errors: [...new Set(errors)] }
}
