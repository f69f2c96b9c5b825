import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { type ChangeEvent, useId, useState } from 'react'
import { Form, useNavigation, useRevalidator } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { CourseOptions } from '#app/components/select-options.tsx'
import { Alert, FormErrors } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { CheckboxField, Field, SelectField } from '#app/components/ui/field.tsx'
import { WeekNumberAndTopic } from '#app/components/uploads/week-fields.tsx'
import {
	largeVideoWarning,
	RECOMMENDED_VIDEO_MB,
	tooLargeMessage,
	UPLOAD_MESSAGES,
	UploadSchema,
	type UploadValues,
} from '#app/models/materials/uploads.ts'

/** Where the browser posts the form when it can show progress (JSON answers); without JavaScript the page's own action takes it. */
const UPLOAD_ENDPOINT = '/uploads/materials'

const VIDEO_NAME = /\.(mp4|m4v|webm|mov)$/i

export type UploadCourse = { id: number; title: string }

type UploadReply = { ok: true; courseId: number } | { ok: false; result?: SubmissionResult<string[]> }

type UploadFormShape = {
	courseId: string
	weekNumber: string
	topic: string
	addZoom: boolean
	zoomLink: string
	materialFiles: File[]
	recordingFiles: File[]
	youtubeUrl: string
}

function selectedFiles(form: HTMLFormElement) {
	return Array.from(form.querySelectorAll<HTMLInputElement>('input[type=file]')).flatMap((input) => Array.from(input.files ?? []))
}

/**
 * The Upload Materials form, on the uploads page (course select first) and on a course's
 * materials screen (`course` fixed). Without JavaScript it is a plain multipart post to
 * `action`; with it, the form is sent by XMLHttpRequest so a real progress bar can follow
 * the upload (held at 99 until the server answers), and it resets on success.
 */
export function UploadMaterialsForm({
	courses,
	course,
	defaultCourseId,
	action,
	lastResult,
	maxUploadMb,
	onUploaded,
}: {
	courses?: UploadCourse[]
	course?: UploadCourse
	defaultCourseId?: number | null
	action: string
	lastResult: SubmissionResult<string[]> | undefined
	maxUploadMb: number
	/** After an upload with JavaScript: the page follows the course (as the redirect does without it); else it only refreshes. */
	onUploaded?: (courseId: number) => void
}) {
	const hydrated = useHydrated()
	const navigation = useNavigation()
	const revalidator = useRevalidator()
	const [xhrResult, setXhrResult] = useState<SubmissionResult<string[]>>()
	const [progress, setProgress] = useState<number | null>(null)
	const [largeVideos, setLargeVideos] = useState<Array<{ name: string; sizeBytes: number }>>([])
	const uploading = progress !== null && progress < 100
	const posting = navigation.state === 'submitting' && navigation.formAction === action
	const formId = course ? `upload-materials-${course.id}` : 'upload-materials'

	const [form, fields] = useForm<UploadFormShape, UploadValues>({
		id: formId,
		lastResult: xhrResult ?? lastResult,
		defaultValue: { courseId: String(course?.id ?? defaultCourseId ?? '') },
		constraint: getZodConstraint(UploadSchema),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: UploadSchema }),
		onSubmit(event, { formData, submission }) {
			if (!submission) return
			event.preventDefault()
			const element = event.currentTarget
			const tooLarge = selectedFiles(element).find((file) => file.size > maxUploadMb * 1024 * 1024)
			if (tooLarge) {
				setXhrResult(submission.reply({ formErrors: [tooLargeMessage(tooLarge.name, maxUploadMb)] }))
				return
			}
			setXhrResult(undefined)
			setProgress(0)
			const xhr = new XMLHttpRequest()
			xhr.open('POST', UPLOAD_ENDPOINT)
			xhr.responseType = 'json'
			xhr.setRequestHeader('Accept', 'application/json')
			xhr.upload.addEventListener('progress', (progressEvent) => {
				if (progressEvent.lengthComputable) setProgress(Math.min(99, Math.floor((progressEvent.loaded / progressEvent.total) * 100)))
			})
			xhr.addEventListener('load', () => {
				const reply = xhr.response as UploadReply | null
				if (xhr.status === 200 && reply?.ok) {
					setProgress(100)
					setLargeVideos([])
					element.reset()
					// The next upload is most likely for the same course: keep it chosen.
					if (onUploaded) {
						onUploaded(reply.courseId)
						return
					}
				} else {
					setProgress(null)
					setXhrResult(reply && !reply.ok && reply.result ? reply.result : submission.reply({ formErrors: [UPLOAD_MESSAGES.generic] }))
					if (!reply || reply.ok) console.error('Upload failed: unexpected answer', xhr.status)
				}
				// Shows the toast the server set and refreshes the lists on the page.
				void revalidator.revalidate()
			})
			xhr.addEventListener('error', () => {
				console.error('Upload failed: the connection to the server was lost')
				setProgress(null)
				setXhrResult(submission.reply({ formErrors: [UPLOAD_MESSAGES.generic] }))
			})
			xhr.send(formData)
		},
	})

	const courseChosen = Boolean(fields.courseId.value)
	const showZoomLink = !hydrated || fields.addZoom.value === 'on'

	function onFilesChange(event: ChangeEvent<HTMLInputElement>) {
		const formElement = event.currentTarget.form
		if (!formElement) return
		setLargeVideos(
			selectedFiles(formElement)
				.filter((file) => (file.type.startsWith('video/') || VIDEO_NAME.test(file.name)) && file.size > RECOMMENDED_VIDEO_MB * 1024 * 1024)
				.map((file) => ({ name: file.name, sizeBytes: file.size })),
		)
	}

	const busy = uploading || posting
	const label = busy ? 'Uploading...' : !courseChosen ? 'Select a Course First' : 'Upload Materials'

	// Without JavaScript the button cannot follow the select: the course is chosen first, on its own.
	if (!hydrated && !course && !defaultCourseId) return <CourseStep courses={courses ?? []} action={action} />

	return (
		<Form method="post" action={action} encType="multipart/form-data" preventScrollReset {...getFormProps(form)} className="space-y-5">
			<FormErrors id={form.errorId} errors={form.errors} />
			{course ? (
				<input type="hidden" name={fields.courseId.name} value={course.id} />
			) : (
				<SelectField label="Course" errors={fields.courseId.errors} selectProps={getSelectProps(fields.courseId)}>
					<option value="">Select a course</option>
					<CourseOptions courses={courses ?? []} />
				</SelectField>
			)}
			<WeekNumberAndTopic weekNumber={fields.weekNumber} topic={fields.topic} />
			<div className="space-y-3">
				<CheckboxField label="Add Zoom Link" errors={undefined} inputProps={getInputProps(fields.addZoom, { type: 'checkbox' })} />
				{showZoomLink ? (
					<Field
						label="Zoom Link"
						errors={fields.zoomLink.errors}
						help={hydrated ? undefined : 'Used only when "Add Zoom Link" is checked.'}
						inputProps={{ ...getInputProps(fields.zoomLink, { type: 'url' }), placeholder: 'https://zoom.us/j/...' }}
					/>
				) : null}
			</div>
			<Field
				label="Class Materials"
				errors={fields.materialFiles.errors}
				help={`PDF, images, Word, Excel, PowerPoint, text or CSV; up to ${maxUploadMb} MB per file. You can choose several files.`}
				inputProps={{
					...getInputProps(fields.materialFiles, { type: 'file' }),
					multiple: true,
					className: 'py-1.5',
					onChange: onFilesChange,
				}}
			/>
			<fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
				<legend className="px-1 text-sm font-semibold text-ink">Class Recordings</legend>
				<Field
					label="Video Files"
					errors={fields.recordingFiles.errors}
					help={`MP4, WebM or MOV; up to ${maxUploadMb} MB per file (${RECOMMENDED_VIDEO_MB} MB or less recommended).`}
					inputProps={{
						...getInputProps(fields.recordingFiles, { type: 'file' }),
						multiple: true,
						accept: 'video/mp4,video/webm,video/quicktime,.mp4,.m4v,.webm,.mov',
						className: 'py-1.5',
						onChange: onFilesChange,
					}}
				/>
				<Field
					label="YouTube Link"
					errors={fields.youtubeUrl.errors}
					help="Or link a recording on YouTube instead of uploading it."
					inputProps={{ ...getInputProps(fields.youtubeUrl, { type: 'url' }), placeholder: 'https://www.youtube.com/watch?v=...' }}
				/>
			</fieldset>
			{largeVideos.length > 0 ? (
				<Alert tone="warning" title="Large video files">
					{largeVideoWarning(largeVideos)}
				</Alert>
			) : null}
			{progress !== null ? <UploadProgress value={progress} /> : null}
			<Button type="submit" disabled={busy || (hydrated && !courseChosen)}>
				{label}
			</Button>
		</Form>
	)
}

/** The first step without JavaScript: a GET form that opens the upload form for the chosen course. */
function CourseStep({ courses, action }: { courses: UploadCourse[]; action: string }) {
	return (
		<Form method="get" action={action} className="space-y-5">
			<SelectField label="Course" selectProps={{ name: 'course', defaultValue: '', required: true }}>
				<option value="">Select a course</option>
				<CourseOptions courses={courses} />
			</SelectField>
			{/* It opens the upload form for the course: named for that (issue 39 point 9); the spec's words stay on the upload button. */}
			<Button type="submit">Choose Course</Button>
		</Form>
	)
}

function UploadProgress({ value }: { value: number }) {
	const labelId = useId()
	return (
		<div className="space-y-1">
			<div className="flex justify-between text-sm text-slate-700">
				<span id={labelId}>{value < 100 ? 'Uploading...' : 'Upload complete'}</span>
				<span>{value}%</span>
			</div>
			<div
				role="progressbar"
				aria-labelledby={labelId}
				aria-valuemin={0}
				aria-valuemax={100}
				aria-valuenow={value}
				className="h-2.5 overflow-hidden rounded-full bg-slate-200"
			>
				<div className="h-full rounded-full bg-brand-700 transition-[width]" style={{ width: `${value}%` }} />
			</div>
		</div>
	)
}
