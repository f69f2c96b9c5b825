import { randomUUID } from 'node:crypto'
import { createWriteStream, type Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { assertValidKey, assertValidPrefix, resolveRange } from './keys.ts'
import type { FileStorage, ObjectStream, StoredObject } from './storage.ts'

const DEFAULT_CONTENT_TYPE = 'application/octet-stream'

/**
 * Files on local disk, each at its key under the root directory. The content type lives in
 * a hidden side file (`.{name}.meta.json`) and uploads are written to a hidden temporary
 * file first; keys can never name either, because no key segment may start with a dot.
 */
export class LocalFileStorage implements FileStorage {
	readonly kind = 'local'
	readonly rootDir: string

	constructor(rootDir: string) {
		this.rootDir = path.resolve(rootDir)
	}

	async put(key: string, body: Readable | Uint8Array, options: { contentType: string }) {
		const file = this.pathOf(key)
		const directory = path.dirname(file)
		await fs.mkdir(directory, { recursive: true })
		const temp = path.join(directory, `.${path.basename(file)}.${randomUUID()}.tmp`)
		try {
			if (body instanceof Uint8Array) await fs.writeFile(temp, body, { flag: 'wx' })
			else await pipeline(body, createWriteStream(temp, { flags: 'wx' }))
			const { size } = await fs.stat(temp)
			await writeFileAtomically(metaPathOf(file), JSON.stringify({ contentType: options.contentType }))
			await fs.rename(temp, file)
			return { size }
		} catch (error) {
			await fs.rm(temp, { force: true })
			throw error
		}
	}

	async get(key: string, range?: { start: number; end?: number }): Promise<ObjectStream | null> {
		const file = this.pathOf(key)
		let handle: fs.FileHandle
		try {
			handle = await fs.open(file, 'r')
		} catch (error) {
			if (isMissing(error)) return null
			throw error
		}
		try {
			const stats = await handle.stat()
			if (!stats.isFile()) {
				await handle.close()
				return null
			}
			const contentType = await readContentType(file)
			if (!range) return { body: handle.createReadStream(), size: stats.size, contentType }
			const bytes = resolveRange(range, stats.size)
			return { body: handle.createReadStream(bytes), size: stats.size, contentType, range: bytes }
		} catch (error) {
			await handle.close()
			throw error
		}
	}

	async stat(key: string) {
		const file = this.pathOf(key)
		try {
			const stats = await fs.stat(file)
			if (!stats.isFile()) return null
			return { size: stats.size, contentType: await readContentType(file), lastModified: stats.mtime }
		} catch (error) {
			if (isMissing(error)) return null
			throw error
		}
	}

	async delete(key: string) {
		const file = this.pathOf(key)
		await fs.rm(file, { force: true })
		await fs.rm(metaPathOf(file), { force: true })
	}

	async deleteMany(keys: string[]) {
		keys.forEach(assertValidKey)
		for (const key of keys) await this.delete(key)
	}

	async *list(prefix: string): AsyncIterable<StoredObject> {
		assertValidPrefix(prefix)
		const slash = prefix.lastIndexOf('/')
		yield* this.walk(slash === -1 ? '' : prefix.slice(0, slash), prefix)
	}

	async presignedUrl() {
		return null
	}

	async check() {
		await fs.mkdir(this.rootDir, { recursive: true })
		const probe = path.join(this.rootDir, `.check-${randomUUID()}`)
		await fs.writeFile(probe, '')
		await fs.rm(probe)
	}

	/**
	 * Removes what uploads that never finished left behind: a process killed while writing
	 * leaves its hidden temporary file (and maybe the side file of an object never renamed
	 * into place), which list() and so the Orphaned Materials screen never show. Only files
	 * untouched since `olderThan` go: a live upload writes to its temporary file all along.
	 */
	async removeAbandonedUploads(olderThan: Date) {
		let removed = 0
		const sweep = async (directory: string) => {
			const entries = await entriesOf(directory)
			const names = new Set(entries.map((entry) => entry.name))
			for (const entry of entries) {
				const file = path.join(directory, entry.name)
				if (entry.isDirectory()) await sweep(file)
				if (!entry.isFile()) continue
				const meta = SIDE_FILE.exec(entry.name)
				const abandoned = TEMPORARY_FILE.test(entry.name) || (meta !== null && !names.has(meta[1]!))
				if (!abandoned) continue
				const stats = await fs.stat(file).catch(() => null)
				if (!stats || stats.mtime >= olderThan) continue
				await fs.rm(file, { force: true })
				removed += 1
			}
		}
		await sweep(this.rootDir)
		return removed
	}

	private pathOf(key: string) {
		assertValidKey(key)
		return path.join(this.rootDir, ...key.split('/'))
	}

	private async *walk(directoryKey: string, prefix: string): AsyncGenerator<StoredObject> {
		const directory = directoryKey ? path.join(this.rootDir, ...directoryKey.split('/')) : this.rootDir
		const entries = await entriesOf(directory)
		entries.sort((a, b) => (a.name < b.name ? -1 : 1))
		for (const entry of entries) {
			if (entry.name.startsWith('.')) continue
			const key = directoryKey ? `${directoryKey}/${entry.name}` : entry.name
			if (entry.isDirectory()) {
				if (`${key}/`.startsWith(prefix)) yield* this.walk(key, prefix)
			} else if (entry.isFile() && key.startsWith(prefix)) {
				const stats = await fs.stat(path.join(directory, entry.name)).catch((error: unknown) => {
					if (isMissing(error)) return null
					throw error
				})
				if (stats) yield { key, size: stats.size, lastModified: stats.mtime }
			}
		}
	}
}

/** `.{name}.{uuid}.tmp`: an upload, or a side file, being written. */
const TEMPORARY_FILE = /^\..+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/
/** `.{name}.meta.json`: the content type of the file `{name}` beside it. */
const SIDE_FILE = /^\.(.+)\.meta\.json$/

function metaPathOf(file: string) {
	return path.join(path.dirname(file), `.${path.basename(file)}.meta.json`)
}

async function readContentType(file: string) {
	try {
		const meta: unknown = JSON.parse(await fs.readFile(metaPathOf(file), 'utf8'))
		if (meta && typeof meta === 'object' && 'contentType' in meta && typeof meta.contentType === 'string') {
			return meta.contentType
		}
	} catch (error) {
		if (!isMissing(error) && !(error instanceof SyntaxError)) throw error
	}
	return DEFAULT_CONTENT_TYPE
}

async function writeFileAtomically(file: string, contents: string) {
	const temp = `${file}.${randomUUID()}.tmp`
	try {
		await fs.writeFile(temp, contents, { flag: 'wx' })
		await fs.rename(temp, file)
	} catch (error) {
		await fs.rm(temp, { force: true })
		throw error
	}
}

/** A directory's entries; none when it does not exist (nothing was stored below it). */
async function entriesOf(directory: string): Promise<Dirent[]> {
	try {
		return await fs.readdir(directory, { withFileTypes: true })
	} catch (error) {
		if (isMissing(error)) return []
		throw error
	}
}

/** ENOTDIR: a path component is a file, so nothing can exist below it. */
function isMissing(error: unknown) {
	const code = (error as NodeJS.ErrnoException | null)?.code
	return code === 'ENOENT' || code === 'ENOTDIR'
}
