import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

/*
 * The keys of stored material files and of their PDF previews (docs/decisions/028), and the one
 * rule for removing them: a file goes only when no material item uses it any more.
 */

/** Previews are kept apart from the course files, so no listing of those (orphans) sees them. */
export const PREVIEW_PREFIX = 'previews/'

export function previewKeyOf(storageKey: string) {
	return `${PREVIEW_PREFIX}${storageKey}.pdf`
}

/** The stored files to remove with these keys: their previews too. */
export function withPreviewKeys(keys: string[]) {
	return keys.flatMap((key) => (key.startsWith('courses/') ? [key, previewKeyOf(key)] : [key]))
}

const LOOKUP_BATCH = 500

/** The material file a key names: the key itself, or the file a preview key is the preview of. */
function materialKeyOf(key: string) {
	return key.startsWith(PREVIEW_PREFIX) ? key.slice(PREVIEW_PREFIX.length).replace(/\.pdf$/, '') : key
}

/**
 * The keys of these that no material item references (a file, or the preview of a file): the
 * only ones that may be deleted from storage. A course run again shares its stored files with the
 * course it came from (docs/decisions/045), so a row going does not mean its file goes. Every
 * removal of stored files asks this first, after the rows are gone.
 */
export async function unsharedKeys(db: Kysely<Database>, keys: readonly string[]) {
	const unique = [...new Set(keys)]
	const referenced = new Set<string>()
	const materialKeys = [...new Set(unique.map(materialKeyOf))]
	for (let start = 0; start < materialKeys.length; start += LOOKUP_BATCH) {
		const batch = materialKeys.slice(start, start + LOOKUP_BATCH)
		const rows = await db.selectFrom('material_items').select('storage_key').where('storage_key', 'in', batch).execute()
		for (const row of rows) if (row.storage_key) referenced.add(row.storage_key)
	}
	return unique.filter((key) => !referenced.has(materialKeyOf(key)))
}
