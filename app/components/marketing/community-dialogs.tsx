import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { LabelledOptions } from '#app/components/select-options.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { FactGrid } from '#app/components/ui/fact-grid.tsx'
import { CheckboxField, Field, SelectField, TextareaField } from '#app/components/ui/field.tsx'
import {
	COMMUNITY_EXPERIENCE_LEVELS,
	COMMUNITY_LOCATIONS,
	COMMUNITY_SPECIALTIES,
	type CommunityFilters,
	type CommunityMember,
	type CommunityTab,
	DiscussionSchema,
	experienceLabel,
} from '#app/models/site/community.ts'
import { Avatar, ConnectButton, type HrefWith } from './community-panels.tsx'

/** The filters of the members list, each a select of any value or one of its options. */
const FILTER_SELECTS = [
	{
		name: 'location',
		label: 'Location',
		anyLabel: 'All Locations',
		options: COMMUNITY_LOCATIONS.map((location) => ({ value: location, label: location })),
	},
	{
		name: 'specialty',
		label: 'Specialty',
		anyLabel: 'Any specialty',
		options: COMMUNITY_SPECIALTIES.map((specialty) => ({ value: specialty, label: specialty })),
	},
	{ name: 'experience', label: 'Experience Level', anyLabel: 'Any experience level', options: COMMUNITY_EXPERIENCE_LEVELS },
] as const

export function FiltersDialog({
	filters,
	tab,
	closeTo,
	hrefWith,
}: {
	filters: CommunityFilters
	tab: CommunityTab
	closeTo: string
	hrefWith: HrefWith
}) {
	return (
		<RouteDialog title="Filters" description="Find investors by location, specialty and experience level." closeTo={closeTo}>
			<Form method="get" action="/community" className="space-y-4">
				{tab !== 'members' ? <input type="hidden" name="tab" value={tab} /> : null}
				{filters.q ? <input type="hidden" name="q" value={filters.q} /> : null}
				{FILTER_SELECTS.map((select) => (
					<FilterSelect key={select.name} {...select} value={filters[select.name]} />
				))}
				<div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
					<Link
						to={hrefWith({ dialog: null, location: null, specialty: null, experience: null })}
						preventScrollReset
						className={buttonClasses({ variant: 'outline' })}
					>
						Clear all
					</Link>
					<Button type="submit">Apply Filters</Button>
				</div>
			</Form>
		</RouteDialog>
	)
}

function FilterSelect({
	label,
	name,
	value,
	anyLabel,
	options,
}: {
	label: string
	name: string
	value: string | null | undefined
	anyLabel: string
	options: ReadonlyArray<{ value: string; label: string }>
}) {
	return (
		<SelectField label={label} selectProps={{ name, defaultValue: value ?? '' }}>
			<option value="">{anyLabel}</option>
			<LabelledOptions options={options} />
		</SelectField>
	)
}

export function DiscussionDialog({ closeTo, lastResult }: { closeTo: string; lastResult: SubmissionResult<string[]> | undefined }) {
	const navigation = useNavigation()
	const isPosting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'discuss'
	const [form, fields] = useForm({
		id: 'start-discussion',
		lastResult,
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: DiscussionSchema }),
	})
	return (
		<RouteDialog title="Start a Discussion" description="Ask a question or share an insight with fellow investors." closeTo={closeTo}>
			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<input type="hidden" name="intent" value="discuss" />
				{form.errors?.length ? (
					<Alert tone="error" id={form.errorId}>
						{form.errors.join(' ')}
					</Alert>
				) : null}
				<Field
					label="Title"
					errors={fields.title.errors}
					inputProps={{ ...getInputProps(fields.title, { type: 'text' }), maxLength: 200, placeholder: 'What would you like to discuss?' }}
				/>
				<TextareaField
					label="Content"
					errors={fields.content.errors}
					textareaProps={{
						...getTextareaProps(fields.content),
						maxLength: 5000,
						rows: 6,
						placeholder: 'Share details, numbers or context...',
					}}
				/>
				<CheckboxField label="Notify me when someone replies" inputProps={getInputProps(fields.notifyReplies, { type: 'checkbox' })} />
				<div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
					<Link to={closeTo} preventScrollReset className={buttonClasses({ variant: 'outline' })}>
						Cancel
					</Link>
					<Button type="submit" disabled={isPosting}>
						{isPosting ? 'Posting...' : 'Post Discussion'}
					</Button>
				</div>
			</Form>
		</RouteDialog>
	)
}

export function ProfileDialog({ member, closeTo }: { member: CommunityMember; closeTo: string }) {
	const facts = [
		{ label: 'Location', value: member.location },
		{ label: 'Specialty', value: member.specialty },
		{ label: 'Experience', value: experienceLabel(member.experience) },
		{ label: 'Years investing', value: String(member.yearsInvesting) },
		{ label: 'Deals closed', value: String(member.dealsClosed) },
	]
	return (
		<RouteDialog title={member.name} description={member.headline} closeTo={closeTo}>
			<div className="flex items-center gap-4">
				<Avatar name={member.name} size="lg" />
				<p className="text-sm leading-relaxed text-slate-700">{member.bio}</p>
			</div>
			<FactGrid facts={facts} className="mt-6 gap-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200" />
			<div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
				<Link to={closeTo} preventScrollReset className={buttonClasses({ variant: 'outline' })}>
					Close
				</Link>
				<ConnectButton member={member} />
			</div>
		</RouteDialog>
	)
}
