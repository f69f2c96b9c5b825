import { recordFirstOpen } from '#app/models/materials/material-opens.server.ts'
import { canAccessCourse, getMaterialItem, isClosedTo, readerOfCourse } from '#app/models/materials/materials.server.ts'
import { type MaterialItemDetail, WEEK_NOT_OPEN_MESSAGE } from '#app/models/materials/materials.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'

/**
 * The stored material a file route serves, for an admin or an instructor of its course (decision
 * 056), or a student with an active or completed enrollment in its course (decision 035) once its
 * week is open; otherwise the answer
 * to send instead (404, 403, or the login). A student's first open is recorded on the way (decision 051).
 */
export async function readableMaterialFile(
	request: Request,
	itemIdParam: string | undefined,
): Promise<{ item: MaterialItemDetail & { storageKey: string } } | { refusal: Response }> {
	const signedIn = await requireUser(request)
	const id = parseRowId(itemIdParam)
	const db = getDb()
	const item = id !== null ? await getMaterialItem(db, id) : null
	if (!item?.storageKey) return { refusal: textResponse('File not found', 404) }
	const user = await readerOfCourse(db, signedIn, item.courseId)
	if (!(await canAccessCourse(db, user, item.courseId))) {
		return { refusal: textResponse("You don't have permission to access this file", 403) }
	}
	// Until its week opens, a file is refused to students whatever URL asks for it (docs/decisions/031).
	if (isClosedTo(user, item)) return { refusal: textResponse(WEEK_NOT_OPEN_MESSAGE, 403) }
	await recordFirstOpen(db, user, item.id)
	return { item: { ...item, storageKey: item.storageKey } }
}
