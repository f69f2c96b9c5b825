import { getFormProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link, useNavigation } from 'react-router'
import { AgreementText } from '#app/components/agreement-text.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { TextareaField } from '#app/components/ui/field.tsx'
import { Label, Select } from '#app/components/ui/input.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { TableCard } from '#app/components/ui/table.tsx'
import {
	agreementCourse,
	currentAgreementVersion,
	getAgreementVersion,
	listAgreementVersions,
	renderAgreement,
	saveAgreementVersion,
} from '#app/models/enrollment/agreement.server.ts'
import {
	AGREEMENT_MAX_LENGTH,
	AGREEMENT_PLACEHOLDERS,
	type AgreementCourse,
	AgreementTemplateSchema,
} from '#app/models/enrollment/agreement.ts'
import { getSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/agreement'

const AGREEMENT_PATH = href('/dashboard/admin/agreement')

/** What a preview is filled with before any course exists: the program as the specification sells it. */
const SAMPLE_COURSE: AgreementCourse = {
	title: 'Real Estate Mentorship Program',
	registrationFee: 250_000,
	startDate: null,
	endDate: null,
	sessionMinutes: null,
	sessionCount: null,
	refundTerms: null,
}

/** The course a preview is filled with: the one asked for, else the newest, else the sample. */
async function previewCourse(requestedId: FormDataEntryValue | null) {
	const db = getDb()
	const courses = await db.selectFrom('courses').select(['id', 'title']).orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
	const requested = typeof requestedId === 'string' ? parseRowId(requestedId) : null
	const chosen = courses.find((course) => course.id === requested) ?? courses[0]
	const course = chosen ? await agreementCourse(db, chosen.id) : null
	return { courses, courseId: chosen?.id ?? null, course: course ?? SAMPLE_COURSE }
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const url = new URL(request.url)
	const db = getDb()
	const [current, versions, preview, school] = await Promise.all([
		currentAgreementVersion(db),
		listAgreementVersions(db),
		previewCourse(url.searchParams.get('course')),
		getSchoolDetails(db),
	])
	const shownId = parseRowId(url.searchParams.get('version'))
	const shown = shownId && shownId !== current.id ? await getAgreementVersion(db, shownId) : null
	const displayed = shown ?? current
	return {
		current: { id: current.id, body: current.body },
		shown: { id: displayed.id, isCurrent: !shown, html: renderAgreement(displayed.body, preview.course, school.name) },
		versions: versions.map((version) => ({ ...version, acceptedBy: Number(version.acceptedBy ?? 0) })),
		courses: preview.courses,
		courseId: preview.courseId,
	}
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: AgreementTemplateSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), preview: null }, { status: 400 })
	if (formData.get('intent') === 'save') {
		const { id, saved } = await saveAgreementVersion(getDb(), { adminId: admin.id, body: submission.value.body })
		return redirectWithToast(AGREEMENT_PATH, {
			type: saved ? 'success' : 'info',
			title: saved ? `Agreement version ${id} saved` : 'Nothing changed',
			description: saved
				? 'New enrolments accept this version; earlier enrolments keep the one they accepted.'
				: `Version ${id} is already in force with this text.`,
		})
	}
	const [{ course }, school] = await Promise.all([previewCourse(formData.get('previewCourse')), getSchoolDetails(getDb())])
	return {
		result: submission.reply(),
		preview: { body: submission.value.body, html: renderAgreement(submission.value.body, course, school.name) },
	}
}

export default function AgreementEditor({ loaderData, actionData }: Route.ComponentProps) {
	const { current, shown, versions, courses, courseId } = loaderData
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
	const [form, fields] = useForm({
		id: 'agreement-editor',
		lastResult: actionData?.result,
		defaultValue: { body: current.body },
		shouldRevalidate: 'onBlur',
	})
	const preview = actionData?.preview ?? null
	return (
		<>
			<div>
				<h1 className="text-2xl font-bold text-ink">Program Agreement</h1>
				<p className="mt-1 text-sm text-slate-600">
					What every student reads and accepts before paying. Each course fills in its own values; each saved version is kept, and an
					enrolment records the one its student accepted.
				</p>
			</div>

			{preview ? (
				<section aria-labelledby="preview-heading" className="space-y-3">
					<h2 id="preview-heading" className="text-lg font-semibold text-ink">
						Preview: not saved yet
					</h2>
					<AgreementText html={preview.html} label="Preview of the agreement" />
					<Form method="post" action={AGREEMENT_PATH} className="flex flex-wrap items-center gap-3">
						<input type="hidden" name="intent" value="save" />
						<input type="hidden" name="body" value={preview.body} />
						<Button type="submit" disabled={busy === 'save'}>
							{busy === 'save' ? 'Saving...' : 'Save this version'}
						</Button>
						<span className="text-sm text-slate-600">Or change the text below and preview it again.</span>
					</Form>
				</section>
			) : null}

			<Card className="space-y-4 p-4 sm:p-6">
				<Form method="post" action={AGREEMENT_PATH} {...getFormProps(form)} className="space-y-4">
					{form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
					<TextareaField
						label="Agreement (Markdown)"
						errors={fields.body.errors}
						help="A blank line starts a paragraph; “1.” starts a numbered clause; **two stars** make bold. HTML is shown as text."
						textareaProps={{
							...getTextareaProps(fields.body),
							rows: 18,
							maxLength: AGREEMENT_MAX_LENGTH,
							className: 'font-mono text-sm',
						}}
					/>
					<details className="text-sm text-slate-700">
						<summary className="cursor-pointer font-medium text-ink">Placeholders each course fills in</summary>
						<dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
							{Object.entries(AGREEMENT_PLACEHOLDERS).map(([name, meaning]) => (
								<div key={name} className="contents">
									<dt className="font-mono text-ink">{`{${name}}`}</dt>
									<dd>{meaning}</dd>
								</div>
							))}
						</dl>
					</details>
					<div className="flex flex-wrap items-end gap-3">
						{courses.length > 0 ? (
							<div>
								<Label htmlFor="preview-course">Preview with</Label>
								<Select id="preview-course" name="previewCourse" defaultValue={courseId ?? undefined} className="mt-1 w-64">
									{courses.map((course) => (
										<option key={course.id} value={course.id}>
											{course.title}
										</option>
									))}
								</Select>
							</div>
						) : null}
						<Button type="submit" name="intent" value="preview" variant="outline" disabled={busy === 'preview'}>
							{busy === 'preview' ? 'Previewing...' : 'Preview'}
						</Button>
					</div>
				</Form>
			</Card>

			<section aria-labelledby="in-force-heading" className="space-y-3">
				<h2 id="in-force-heading" className="text-lg font-semibold text-ink">
					{shown.isCurrent ? `Version ${shown.id}, in force` : `Version ${shown.id}, an earlier version`}
				</h2>
				{shown.isCurrent ? null : (
					<p className="text-sm">
						<Link to={AGREEMENT_PATH} className="font-medium text-brand-700 underline">
							Back to the version in force
						</Link>
					</p>
				)}
				<AgreementText html={shown.html} label={`Agreement version ${shown.id}`} />
			</section>

			<TableCard>
				<RowsTable caption="Agreement versions" columns={['Version', 'Saved', 'By', 'Accepted by', 'Text']}>
					{versions.map((version) => (
						<tr key={version.id}>
							<td className="px-4 py-3 font-medium text-ink">
								{version.id}
								{version.id === current.id ? <span className="block text-xs text-slate-600">in force</span> : null}
							</td>
							<td className="px-4 py-3 whitespace-nowrap text-slate-700">
								<LocalDate value={version.createdAt} time />
							</td>
							<td className="px-4 py-3 text-slate-700">{version.authorName || version.authorEmail || 'The first version'}</td>
							<td className="px-4 py-3 text-slate-700">{version.acceptedBy === 1 ? '1 enrolment' : `${version.acceptedBy} enrolments`}</td>
							<td className="px-4 py-3">
								<Link
									to={`${AGREEMENT_PATH}?version=${version.id}${courseId ? `&course=${courseId}` : ''}`}
									className="font-medium text-brand-700 underline"
								>
									Read version {version.id}
								</Link>
							</td>
						</tr>
					))}
				</RowsTable>
			</TableCard>
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Program Agreement')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
