import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Button } from '#app/components/ui/button.tsx'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import { EMPTY_MESSAGE, MAX_MESSAGE_LENGTH } from '#app/models/messaging/messages.ts'
import { FILE_TOO_LARGE_MESSAGE, isOverUploadLimit } from '#app/utils/upload-limit.ts'

/** The error an action answered for this conversation's composer, and the text it sent, if any. */
export function composerReplyFor(actionData: unknown, receiverId: string | undefined) {
	if (!actionData || typeof actionData !== 'object' || !receiverId) return {}
	const reply = actionData as { intent?: unknown; error?: unknown; receiverId?: unknown; content?: unknown }
	if (reply.intent !== 'send' || reply.receiverId !== receiverId || typeof reply.error !== 'string') return {}
	return { error: reply.error, content: typeof reply.content === 'string' ? reply.content : undefined }
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
	sentContent,
	maxUploadMb,
}: {
	receiverId: string
	recipientName: string
	error?: string
	/** The text of a refused send: a page drawn anew (no JavaScript) shows it again. */
	sentContent?: string
	maxUploadMb: number
}) {
	const hydrated = useHydrated()
	const navigation = useNavigation()
	const formRef = useRef<HTMLFormElement>(null)
	const [localError, setLocalError] = useState<string>()
	const [fileError, setFileError] = useState<string>()
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
				const file = (form.elements.namedItem('attachment') as HTMLInputElement).files?.[0]
				// A file over the limit is refused before a byte of it is sent.
				const tooLarge = isOverUploadLimit(file, maxUploadMb)
				setFileError(tooLarge ? FILE_TOO_LARGE_MESSAGE : undefined)
				setLocalError(!content && !file ? EMPTY_MESSAGE : undefined)
				if (tooLarge || (!content && !file)) event.preventDefault()
			}}
		>
			<input type="hidden" name="intent" value="send" />
			<input type="hidden" name="receiverId" value={receiverId} />
			<TextareaField
				label="Message"
				errors={shownError ? [shownError] : undefined}
				help={hydrated ? 'Press Enter to send, Shift+Enter for a new line.' : undefined}
				textareaProps={{
					name: 'content',
					rows: 3,
					placeholder: 'Type your message...',
					onKeyDown,
					maxLength: MAX_MESSAGE_LENGTH,
					defaultValue: sentContent,
				}}
			/>
			<div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
				<Field
					label="Attachment (optional)"
					help={`One file, up to ${maxUploadMb} MB.`}
					className="sm:max-w-sm"
					errors={fileError ? [fileError] : undefined}
					inputProps={{ type: 'file', name: 'attachment', className: 'py-1.5', onChange: () => setFileError(undefined) }}
				/>
				<Button type="submit" disabled={sending}>
					{sending ? 'Sending...' : 'Send'}
				</Button>
			</div>
		</Form>
	)
}
