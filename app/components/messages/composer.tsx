import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Button } from '#app/components/ui/button.tsx'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import { EMPTY_MESSAGE, MAX_MESSAGE_LENGTH } from '#app/models/messages.ts'

/** The error an action answered for this conversation's composer, if any. */
export function composerErrorFor(actionData: unknown, receiverId: string | undefined) {
	if (!actionData || typeof actionData !== 'object' || !receiverId) return undefined
	const reply = actionData as { intent?: unknown; error?: unknown; receiverId?: unknown }
	return reply.intent === 'send' && reply.receiverId === receiverId && typeof reply.error === 'string' ? reply.error : undefined
}

/**
 * Text and one attachment, posted as multipart (a plain submit without
 * JavaScript). With JavaScript, Enter sends and Shift+Enter adds a newline.
 * The hidden fields come first so the server can authorise the send before
 * the file arrives.
 */
export function Composer({
	receiverId,
	recipientName,
	error,
	maxUploadMb,
}: {
	receiverId: string
	recipientName: string
	error?: string
	maxUploadMb: number
}) {
	const hydrated = useHydrated()
	const navigation = useNavigation()
	const formRef = useRef<HTMLFormElement>(null)
	const [localError, setLocalError] = useState<string>()
	const sending =
		navigation.state === 'submitting' &&
		navigation.formData?.get('intent') === 'send' &&
		navigation.formData.get('receiverId') === receiverId
	const wasSending = useRef(false)

	// A successful send redirects back here; clear the form for the next message.
	useEffect(() => {
		if (sending) wasSending.current = true
		else if (navigation.state === 'idle' && wasSending.current) {
			wasSending.current = false
			if (!error) formRef.current?.reset()
		}
	}, [sending, navigation.state, error])

	const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
		if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
		event.preventDefault()
		event.currentTarget.form?.requestSubmit()
	}

	const shownError = localError ?? error
	return (
		<Form
			ref={formRef}
			method="post"
			encType="multipart/form-data"
			preventScrollReset
			className="mt-4 space-y-3"
			aria-label={`Message ${recipientName}`}
			onSubmit={(event) => {
				const form = event.currentTarget
				const content = (form.elements.namedItem('content') as HTMLTextAreaElement).value.trim()
				const file = (form.elements.namedItem('attachment') as HTMLInputElement).files?.length
				if (!content && !file) {
					event.preventDefault()
					setLocalError(EMPTY_MESSAGE)
					return
				}
				setLocalError(undefined)
			}}
		>
			<input type="hidden" name="intent" value="send" />
			<input type="hidden" name="receiverId" value={receiverId} />
			<TextareaField
				label="Message"
				errors={shownError ? [shownError] : undefined}
				help={hydrated ? 'Press Enter to send, Shift+Enter for a new line.' : undefined}
				textareaProps={{ name: 'content', rows: 3, placeholder: 'Type your message...', onKeyDown, maxLength: MAX_MESSAGE_LENGTH }}
			/>
			<div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
				<Field
					label="Attachment (optional)"
					help={`One file, up to ${maxUploadMb} MB.`}
					className="sm:max-w-sm"
					inputProps={{ type: 'file', name: 'attachment', className: 'py-1.5' }}
				/>
				<Button type="submit" disabled={sending}>
					{sending ? 'Sending...' : 'Send'}
				</Button>
			</div>
		</Form>
	)
}
