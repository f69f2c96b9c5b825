import { data, href, Link, useNavigate } from 'react-router'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { UploadMaterialsForm } from '#app/components/uploads/upload-form.tsx'
import { listCourseOptions } from '#app/models/materials/materials-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { receiveMaterialUpload, uploadSuccessToast } from './+shared/material-upload.server.ts'
import type { Route } from './+types/uploads'

const UPLOADS_PATH = href('/dashboard/admin/uploads')

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const courses = await listCourseOptions(getDb())
	const requested = parseRowId(new URL(request.url).searchParams.get('course'))
	const selectedCourseId = courses.some((course) => course.id === requested) ? requested : null
	return { courses, selectedCourseId, maxUploadMb: getEnv().MAX_UPLOAD_MB }
}

/** The form without JavaScript: a plain multipart post, streamed (see receiveMaterialUpload). */
export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const outcome = await receiveMaterialUpload(request, {
		adminId: admin.id,
		maxUploadMb: getEnv().MAX_UPLOAD_MB,
		courseAllowed: async () => true,
	})
	if (!outcome.ok) return data({ result: outcome.result }, { status: outcome.status })
	return redirectWithToast(`${UPLOADS_PATH}?course=${outcome.courseId}`, uploadSuccessToast(outcome))
}

export default function UploadMaterials({ loaderData, actionData }: Route.ComponentProps) {
	const { courses, selectedCourseId, maxUploadMb } = loaderData
	const navigate = useNavigate()
	return (
		<>
			<div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
				<h1 className="text-2xl font-bold text-ink">Upload Course Materials</h1>
				<Link
					to={href('/dashboard/admin/orphaned-materials')}
					target="_blank"
					rel="noopener"
					className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
				>
					Orphaned Materials Cleanup<span className="sr-only"> (opens in a new tab)</span>
				</Link>
			</div>
			{courses.length === 0 ? (
				<EmptyState
					title="No courses yet"
					description="Create a course first, then upload its weekly materials here."
					action={<ButtonLink to={href('/dashboard/admin/courses')}>Manage Courses</ButtonLink>}
				/>
			) : (
				<Card>
					<CardHeader>
						<CardTitle>Upload Materials</CardTitle>
						<CardDescription>
							Choose the course, then the week. Files added to a week number that already exists are added to that week.
						</CardDescription>
					</CardHeader>
					<CardContent className="space-y-4">
						<UploadMaterialsForm
							key={selectedCourseId ?? 'none'}
							courses={courses}
							defaultCourseId={selectedCourseId}
							action={selectedCourseId ? `${UPLOADS_PATH}?course=${selectedCourseId}` : UPLOADS_PATH}
							lastResult={actionData?.result}
							maxUploadMb={maxUploadMb}
							// As the redirect without JavaScript does: the page of the course just uploaded to (showing the toast).
							onUploaded={(courseId) => void navigate(`${UPLOADS_PATH}?course=${courseId}`, { replace: true, preventScrollReset: true })}
						/>
						{selectedCourseId ? (
							<p className="text-sm">
								<Link
									to={href('/dashboard/admin/courses/:courseId/materials', { courseId: String(selectedCourseId) })}
									className="font-medium text-brand-700 underline-offset-4 hover:underline"
								>
									Manage this course's materials
								</Link>
							</p>
						) : null}
					</CardContent>
				</Card>
			)}
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Upload Course Materials')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
