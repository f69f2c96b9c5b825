import { type FieldMetadata, getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { type MouseEvent, useEffect, useId, useRef, useState } from 'react'
import { Form, useBlocker, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { CheckboxField, Field } from '#app/components/ui/field.tsx'
import { Input, Label, Select } from '#app/components/ui/input.tsx'
import { MaterialCategoryOptions, MaterialTitleAndCategory, WeekNumberAndTopic } from '#app/components/uploads/week-fields.tsx'
import type { AdminWeek } from '#app/models/materials/materials-admin.ts'
import { NO_SCRIPT_NEW_ROWS, WeekEditSchema, type WeekEditValues, weekEditSchema } from '#app/models/materials/materials-admin.ts'

type WeekEditShape = {
	weekNumber: string
	topic: string
	zoomLink: string
	materials: Array<{ id: string; title: string; category: string; file: File; delete: boolean }>
	newMaterials: Array<{ title: string; category: string; file: File }>
}

type Item = AdminWeek['items'][number]

/**
 * The Edit Week & Materials form: the week's details, every item (title, category, a file
 * that replaces the current one, delete) and new items, saved together in one post. Without
 * JavaScript it shows two empty new rows and a 'Delete' checkbox per item; with it, 'Add
 * Material' adds rows, Delete asks first, and the badges follow what changed.
 */
export function WeekEditForm({
	week,
	action,
	closeTo,
	lastResult,
	maxUploadMb,
}: {
	week: AdminWeek
	action: string
	closeTo: string
	lastResult: SubmissionResult<string[]> | undefined
	maxUploadMb: number
}) {
	const hydrated = useHydrated()
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formAction === action
	const [confirming, setConfirming] = useState<{ input: HTMLInputElement; title: string } | null>(null)
	const confirmed = useRef(false)

	const [form, fields] = useForm<WeekEditShape, WeekEditValues>({
		id: `edit-week-${week.id}`,
		lastResult,
		defaultValue: {
			weekNumber: String(week.weekNumber),
			topic: week.topic,
			zoomLink: week.zoomLink ?? '',
			materials: week.items.map((item) => ({ id: String(item.id), title: item.title, category: item.category })),
			newMaterials: [],
		},
		constraint: getZodConstraint(WeekEditSchema),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		// A file over the limit is refused here, before a byte of the upload is sent.
		onValidate: ({ formData }) => parseWithZod(formData, { schema: weekEditSchema(maxUploadMb) }),
	})
	// Cancel, Escape, the close button or Back with unsaved changes asks before they are thrown away.
	// Saving posts to this same address, and the redirect after it is never blocked.
	const leaving = useBlocker(
		({ currentLocation, nextLocation }) => hydrated && form.dirty && currentLocation.pathname !== nextLocation.pathname,
	)
	const materials = fields.materials.getFieldList()
	const newRows = fields.newMaterials.getFieldList()
	const noScriptRows = !hydrated && newRows.length === 0 ? NO_SCRIPT_NEW_ROWS : 0

	/** With JavaScript, ticking Delete asks first; the confirmed tick goes through. */
	function onDeleteClick(event: MouseEvent<HTMLInputElement>, title: string) {
		const input = event.currentTarget
		if (!input.checked || confirmed.current) {
			confirmed.current = false
			return
		}
		event.preventDefault()
		setConfirming({ input, title })
	}

	return (
		<Form method="post" action={action} encType="multipart/form-data" preventScrollReset {...getFormProps(form)} className="space-y-6">
			<FormErrors id={form.errorId} errors={form.errors} />
			<section aria-labelledby="week-details-heading" className="space-y-4">
				<h3 id="week-details-heading" className="text-base font-semibold text-ink">
					Week Details
				</h3>
				<WeekNumberAndTopic weekNumber={fields.weekNumber} topic={fields.topic} />
				<Field
					label="Zoom Link (optional)"
					errors={fields.zoomLink.errors}
					inputProps={{ ...getInputProps(fields.zoomLink, { type: 'url' }), placeholder: 'https://zoom.us/j/...' }}
				/>
			</section>

			<section aria-labelledby="week-materials-heading" className="space-y-4">
				<div className="flex flex-wrap items-center justify-between gap-2">
					<h3 id="week-materials-heading" className="text-base font-semibold text-ink">
						Materials ({materials.length + newRows.length})
					</h3>
					<Button
						type="submit"
						variant="outline"
						size="sm"
						{...form.insert.getButtonProps({ name: fields.newMaterials.name, defaultValue: { category: 'material' } })}
					>
						Add Material
					</Button>
				</div>
				{materials.length === 0 && newRows.length === 0 ? (
					<p className="rounded-md bg-slate-50 px-3 py-4 text-center text-sm text-slate-600">
						No materials yet. Click "Add Material" to get started.
					</p>
				) : null}
				<ul className="space-y-3">
					{materials.map((field, index) => {
						const item = week.items[index]
						return item ? (
							<ExistingMaterialRow key={field.key} field={field} item={item} hydrated={hydrated} onDeleteClick={onDeleteClick} />
						) : null
					})}
					{newRows.map((field, index) => (
						<NewMaterialRow
							key={field.key}
							field={field}
							number={index + 1}
							removeButton={
								hydrated ? (
									<Button
										type="submit"
										variant="ghost"
										size="sm"
										{...form.remove.getButtonProps({ name: fields.newMaterials.name, index })}
									>
										Remove<span className="sr-only"> new material {index + 1}</span>
									</Button>
								) : null
							}
						/>
					))}
					{Array.from({ length: noScriptRows }, (_, index) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: these rows are numbered blanks, not items
						<NoScriptNewRow key={index} index={index} />
					))}
				</ul>
			</section>

			<div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:items-center sm:justify-end">
				{hydrated && form.dirty ? (
					<Badge tone="yellow" className="sm:mr-auto">
						Unsaved Changes
					</Badge>
				) : null}
				<ButtonLink to={closeTo} preventScrollReset variant="outline">
					Cancel
				</ButtonLink>
				<Button type="submit" disabled={hydrated && (saving || !form.dirty)}>
					{saving ? 'Saving...' : 'Save All Changes'}
				</Button>
			</div>
			{/* Only scripts open them: a browser that shows a closed <dialog> (w3m) would show dead buttons. */}
			{hydrated ? (
				<>
					<ModalQuestion
						open={confirming !== null}
						title="Delete Material?"
						description={confirming ? `"${confirming.title}" will be deleted when you save.` : null}
						confirmLabel="Delete"
						onCancel={() => setConfirming(null)}
						onConfirm={() => {
							if (confirming) {
								confirmed.current = true
								confirming.input.click()
							}
							setConfirming(null)
						}}
					/>
					<ModalQuestion
						open={leaving.state === 'blocked'}
						title="Discard unsaved changes?"
						description="Your changes to this week have not been saved."
						cancelLabel="Keep Editing"
						confirmLabel="Discard Changes"
						onCancel={() => leaving.reset?.()}
						onConfirm={() => leaving.proceed?.()}
					/>
				</>
			) : null}
		</Form>
	)
}

function ExistingMaterialRow({
	field,
	item,
	hydrated,
	onDeleteClick,
}: {
	field: FieldMetadata<WeekEditShape['materials'][number]>
	item: Item
	hydrated: boolean
	onDeleteClick: (event: MouseEvent<HTMLInputElement>, title: string) => void
}) {
	const row = field.getFieldset()
	const deleting = row.delete.value === 'on'
	const about = <span className="sr-only"> of {item.title}</span>
	// What the item holds now, a stored file or a link, opened in a new tab.
	const current = item.fileName
		? {
				href: `/files/materials/${item.id}`,
				text: item.fileName,
				className: 'font-medium text-brand-700 underline-offset-4 hover:underline',
			}
		: item.link
			? { href: item.link, text: item.link, className: 'font-medium break-all text-brand-700 underline-offset-4 hover:underline' }
			: null
	return (
		<li
			className={deleting ? 'space-y-3 rounded-lg border border-red-300 bg-red-50 p-4' : 'space-y-3 rounded-lg border border-slate-200 p-4'}
		>
			<input type="hidden" name={row.id.name} value={row.id.initialValue ?? ''} />
			<div className="flex flex-wrap items-center gap-2">
				<p className="min-w-0 flex-1 truncate font-medium text-ink">{item.title}</p>
				{hydrated && field.dirty && !deleting ? <Badge tone="yellow">Modified</Badge> : null}
				{hydrated && deleting ? <Badge tone="red">Will be deleted</Badge> : null}
			</div>
			<MaterialTitleAndCategory title={row.title} category={row.category} about={about} />
			<p className="text-sm text-slate-700">
				Current file:{' '}
				{current ? (
					<a href={current.href} target="_blank" rel="noopener noreferrer" className={current.className}>
						{current.text}
						<span className="sr-only"> (opens in a new tab)</span>
					</a>
				) : (
					'none'
				)}
			</p>
			<Field
				label={<>Replace file{about}</>}
				errors={row.file.errors}
				help="Optional: a file chosen here replaces the current one."
				inputProps={{ ...getInputProps(row.file, { type: 'file' }), className: 'py-1.5' }}
			/>
			<CheckboxField
				label={<>Delete{about}</>}
				errors={undefined}
				inputProps={{
					...getInputProps(row.delete, { type: 'checkbox' }),
					onClick: (event) => (hydrated ? onDeleteClick(event, item.title) : undefined),
				}}
			/>
		</li>
	)
}

function NewMaterialRow({
	field,
	number,
	removeButton,
}: {
	field: FieldMetadata<WeekEditShape['newMaterials'][number]>
	number: number
	removeButton: React.ReactNode
}) {
	const row = field.getFieldset()
	const about = <span className="sr-only"> of new material {number}</span>
	return (
		<li className="space-y-3 rounded-lg border border-dashed border-brand-300 p-4">
			<div className="flex items-center justify-between gap-2">
				<p className="font-medium text-ink">New material {number}</p>
				<div className="flex items-center gap-2">
					<Badge tone="brand">New</Badge>
					{removeButton}
				</div>
			</div>
			<MaterialTitleAndCategory title={row.title} category={row.category} about={about} />
			<Field
				label={<>File{about}</>}
				errors={row.file.errors}
				inputProps={{ ...getInputProps(row.file, { type: 'file' }), className: 'py-1.5' }}
			/>
		</li>
	)
}

/** The empty new rows a page without JavaScript offers (unused rows are ignored). */
function NoScriptNewRow({ index }: { index: number }) {
	const prefix = `newMaterials[${index}]`
	const about = <span className="sr-only"> of new material {index + 1}</span>
	return (
		<li className="space-y-3 rounded-lg border border-dashed border-brand-300 p-4">
			<p className="font-medium text-ink">New material {index + 1} (optional)</p>
			<div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
				<div className="space-y-1">
					<Label htmlFor={`${prefix}-title`}>Title{about}</Label>
					<Input id={`${prefix}-title`} name={`${prefix}.title`} maxLength={300} />
				</div>
				<div className="space-y-1">
					<Label htmlFor={`${prefix}-category`}>Category{about}</Label>
					<Select id={`${prefix}-category`} name={`${prefix}.category`} defaultValue="material">
						<MaterialCategoryOptions />
					</Select>
				</div>
			</div>
			<div className="space-y-1">
				<Label htmlFor={`${prefix}-file`}>File{about}</Label>
				<Input id={`${prefix}-file`} type="file" name={`${prefix}.file`} className="py-1.5" />
			</div>
		</li>
	)
}

/**
 * A question over the edit dialog ('Delete Material?', 'Discard unsaved changes?'), as a native
 * modal dialog. Its keys stay inside it, so Escape answers Cancel here, not the dialog beneath.
 */
function ModalQuestion({
	open,
	title,
	description,
	cancelLabel = 'Cancel',
	confirmLabel,
	onCancel,
	onConfirm,
}: {
	open: boolean
	title: string
	description: React.ReactNode
	cancelLabel?: string
	confirmLabel: string
	onCancel: () => void
	onConfirm: () => void
}) {
	const ref = useRef<HTMLDialogElement>(null)
	const titleId = useId()
	const descriptionId = useId()
	useEffect(() => {
		const dialog = ref.current
		if (!dialog) return
		if (open && !dialog.open) dialog.showModal()
		if (!open && dialog.open) dialog.close()
	}, [open])
	useEffect(() => {
		const dialog = ref.current
		if (!dialog) return
		const keep = (event: KeyboardEvent) => event.stopPropagation()
		dialog.addEventListener('keydown', keep)
		return () => dialog.removeEventListener('keydown', keep)
	}, [])
	return (
		<dialog
			ref={ref}
			aria-labelledby={titleId}
			aria-describedby={descriptionId}
			onCancel={(event) => {
				event.preventDefault()
				onCancel()
			}}
			className="m-auto w-[calc(100%-2rem)] max-w-sm rounded-2xl bg-white p-6 shadow-xl backdrop:bg-slate-900/50"
		>
			{/* Only an open question has words: a closed one is no text of the page. */}
			{open ? (
				<>
					<h2 id={titleId} className="text-lg font-semibold text-ink">
						{title}
					</h2>
					<p id={descriptionId} className="mt-1 text-sm text-slate-600">
						{description}
					</p>
					<div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
						<Button variant="outline" onClick={onCancel}>
							{cancelLabel}
						</Button>
						<Button variant="destructive" onClick={onConfirm}>
							{confirmLabel}
						</Button>
					</div>
				</>
			) : null}
		</dialog>
	)
}
