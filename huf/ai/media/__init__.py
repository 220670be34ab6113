"""Media for agents: text extraction, OCR, image generation, text-to-speech and speech-to-text."""
