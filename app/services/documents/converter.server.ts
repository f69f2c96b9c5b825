/**
 * Office documents to PDF with LibreOffice run headless (docs/decisions/028): an optional
 * part of the server, looked for once at start-up. Each conversion gets a profile folder of
 * its own, so conversions in several jobs and processes never share LibreOffice's lock.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Env } from '#app/utils/env.server.ts'

const run = promisify(execFile)
const CONVERSION_TIMEOUT_MS = 120_000
const CANDIDATES = ['soffice', 'libreoffice']

export type DocumentConverter = {
	/** What was found, for the start-up log: "LibreOffice 7.4.7.2 …". */
	version: string
	/** The PDF made from a document; throws when LibreOffice cannot read it or takes too long. */
	toPdf(document: Uint8Array, fileName: string): Promise<Uint8Array>
}

let detected: DocumentConverter | null | undefined

/** Looks for LibreOffice once: LIBREOFFICE_PATH, else soffice or libreoffice on PATH; 'off' means none. */
export async function detectDocumentConverter(env: Pick<Env, 'LIBREOFFICE_PATH'>): Promise<DocumentConverter | null> {
	detected = env.LIBREOFFICE_PATH === 'off' ? null : await findLibreOffice(env.LIBREOFFICE_PATH ? [env.LIBREOFFICE_PATH] : CANDIDATES)
	return detected
}

async function findLibreOffice(commands: string[]) {
	for (const command of commands) {
		const version = await run(command, ['--version'], { timeout: 30_000 }).then(
			({ stdout }) => stdout.trim(),
			() => null,
		)
		if (version) return libreOffice(command, version)
	}
	return null
}

/**
 * The start-up line about Office previews: the LibreOffice found, or that previews are off and how to
 * turn them on (docs/decisions/047).
 */
export function previewsStartupLine(converter: DocumentConverter | null, env: Pick<Env, 'LIBREOFFICE_PATH'>) {
	if (converter) return `Office previews: ${converter.version}`
	if (env.LIBREOFFICE_PATH === 'off')
		return 'Office previews are off (LIBREOFFICE_PATH=off): Office files open in the online viewer when the internet can reach this site, else as a download.'
	const looked = env.LIBREOFFICE_PATH ? `LibreOffice not found at ${env.LIBREOFFICE_PATH}` : 'LibreOffice not found'
	return `Office previews are off (${looked}): Office files open in the online viewer when the internet can reach this site, else as a download. To turn them on, install LibreOffice (apt-get install libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui) or set LIBREOFFICE_PATH to its soffice.`
}

/** The converter found at start-up; null when there is none (or none was looked for). */
export function getDocumentConverter() {
	return detected ?? null
}

/** For tests: a converter, or none. */
export function setDocumentConverter(converter: DocumentConverter | null | undefined) {
	detected = converter
}

function libreOffice(command: string, version: string): DocumentConverter {
	return {
		version,
		async toPdf(document, fileName) {
			const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'document-preview-'))
			try {
				// The stored name is already safe for a path (storage keys.ts); only its extension matters to LibreOffice.
				const input = path.join(workspace, `document${path.extname(fileName).toLowerCase()}`)
				await fs.writeFile(input, document)
				await run(
					command,
					[
						`-env:UserInstallation=file://${path.join(workspace, 'profile')}`,
						'--headless',
						'--norestore',
						'--convert-to',
						'pdf',
						'--outdir',
						workspace,
						input,
					],
					{ timeout: CONVERSION_TIMEOUT_MS, killSignal: 'SIGKILL' },
				)
				const output = await fs.readFile(path.join(workspace, 'document.pdf')).catch(() => null)
				if (output?.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('LibreOffice made no PDF of this document.')
				return output
			} finally {
				await fs.rm(workspace, { recursive: true, force: true })
			}
		},
	}
}
