import { useMemo } from 'react'
import { data } from 'react-router'
import { DashboardHome } from '#app/components/materials/dashboard-home.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { MaterialViewer } from '#app/components/viewer/material-viewer.tsx'
import { listStaffCourses } from '#app/models/courses/course-staff.server.ts'
import { recordFirstOpen } from '#app/models/materials/material-opens.server.ts'
import {
	courseAccess,
	getCourseWeeks,
	getMaterialItem,
	isClosedTo,
	listAccessibleCourses,
	readerOfCourse,
} from '#app/models/materials/materials.server.ts'
import {
	fileTypeOf,
	isOfficeKind,
	materialKind,
	previewStateOf,
	safeExternalUrl,
	storedFileName,
	type ViewerItem,
	WEEK_NOT_OPEN_MESSAGE,
	weekTabParam,
	youtubeEmbedUrl,
} from '#app/models/materials/materials.ts'
import { getDocumentConverter } from '#app/services/documents/converter.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { signedPath } from '#app/services/storage/signed-links.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { Route } from './+types/material-viewer'

/** Long enough for the online office viewer to fetch the file, short enough not to be worth sharing. */
const OFFICE_LINK_SECONDS = 5 * 60

/**
 * Where the online office viewer can fetch an Office file that has no preview (no converter,
 * or the conversion failed): the store's presigned URL, else a signed link of the site's own,
 * which only a site the internet can reach may hand out. Null: the page offers the download.
 */
async function onlineViewerSource(item: { id: number; storageKey: string | null; mimeType: string | null }, request: Request) {
	const fileName = storedFileName(item.storageKey!)
	const presigned = await getStorage()
		.presignedUrl(item.storageKey!, {
			expiresInSeconds: OFFICE_LINK_SECONDS,
			downloadName: fileName,
			disposition: 'inline',
			contentType: fileTypeOf(fileName, item.mimeType).contentType,
		})
		.catch(() => null)
	if (presigned) return presigned
	const env = getEnv()
	if (!isReachableFromInternet(new URL(env.APP_URL).hostname)) return null
	return new URL(signedPath(env.SESSION_SECRET, `/files/materials/${item.id}/shared`, OFFICE_LINK_SECONDS), request.url).toString()
}

/** Loopback, private and link-local hosts are not reachable by an online viewer. */
function isReachableFromInternet(hostname: string) {
	const host = hostname.replace(/^\[|\]$/g, '')
	if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '::1') return false
	return !/^(127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|0\.)/.test(host) && !/^f[cd]|^fe80:/i.test(host)
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const signedIn = await requireUser(request)
	const id = parseRowId(params.itemId)
	const db = getDb()
	const item = id !== null ? await getMaterialItem(db, id) : null
	if (!item) throw data('Material not found', { status: 404 })
	// An instructor of the item's course sees it as an admin does (docs/decisions/056).
	const user = await readerOfCourse(db, signedIn, item.courseId)
	const access = await courseAccess(db, user, item.courseId)
	if (!access) throw data("You don't have permission to view this material", { status: 403 })
	if (isClosedTo(user, item)) throw data(WEEK_NOT_OPEN_MESSAGE, { status: 403 })
	const readOnly = access === 'read-only'
	const [, courses, weeks, taught] = await Promise.all([
		// Opening the viewer is opening the material, links and recordings included (decision 051).
		recordFirstOpen(db, user, item.id),
		listAccessibleCourses(db, signedIn),
		getCourseWeeks(db, item.courseId, { liveLinks: !readOnly, reader: user }),
		user === signedIn ? [] : listStaffCourses(db, signedIn.id),
	])

	const kind = materialKind(item)
	const fileUrl = item.storageKey ? `/files/materials/${item.id}` : null
	const preview = isOfficeKind(kind) ? previewStateOf(item) : 'none'
	const officeSourceUrl = item.storageKey && isOfficeKind(kind) && preview !== 'ready' ? await onlineViewerSource(item, request) : null
	const viewerItem: ViewerItem = {
		id: item.id,
		title: item.title,
		kind,
		fileUrl,
		downloadUrl: fileUrl ? `${fileUrl}?download=1` : null,
		externalUrl: item.storageKey ? null : safeExternalUrl(item.fileUrl),
		embedUrl: kind === 'youtube' ? youtubeEmbedUrl(item.fileUrl) : null,
		officeSourceUrl,
		previewUrl: preview === 'ready' ? `/files/materials/${item.id}/preview` : null,
		previewPending: preview === 'pending',
		previewsOff: isOfficeKind(kind) && !getDocumentConverter(),
	}

	// The dashboard behind the dialog shows the item's course with its week on the item's tab.
	const background = new URLSearchParams({ course: String(item.courseId) })
	if (item.category === 'recording') background.set(weekTabParam(item.weekId), 'recordings')

	return {
		dashboard: {
			name: user.name,
			isAdmin: signedIn.isAdmin,
			// The course behind the dialog is the item's, listed for its instructor too.
			courses: [
				...taught.filter((course) => course.id === item.courseId && !courses.some((listed) => listed.id === course.id)),
				...courses,
			].map(({ id, title }) => ({ id, title })),
			selectedCourseId: item.courseId,
			readOnly,
			weeks,
		},
		item: viewerItem,
		weekLabel: `Week ${item.weekNumber}: ${item.topic}`,
		// A document stays behind the 'Protected Content' overlay until 'View Document' is used.
		isProtected: item.type === 'document' && new URL(request.url).searchParams.get('view') !== '1',
		backgroundQuery: background.toString(),
	}
}

export default function MaterialViewerPage({ loaderData }: Route.ComponentProps) {
	const { dashboard, item, weekLabel, isProtected, backgroundQuery } = loaderData
	const searchParams = useMemo(() => new URLSearchParams(backgroundQuery), [backgroundQuery])
	return (
		<>
			<RouteDialog title={item.title} description={weekLabel} closeTo={`/dashboard?${backgroundQuery}`} size="xl">
				<MaterialViewer item={item} isProtected={isProtected} revealTo="?view=1" />
			</RouteDialog>
			<DashboardHome data={dashboard} searchParams={searchParams} signedIn />
		</>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle(loaderData?.item.title ?? 'Material')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
