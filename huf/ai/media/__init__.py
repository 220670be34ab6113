"""Media for agents: text extraction, OCR, image generation, text-to-speech and speech-to-text.

| module | owns |
| --- | --- |
| `extractors.py` | text of PDF, DOCX, XLSX, PPTX, HTML and plain files |
| `ocr.py` | `ocr_document`: extraction first, then the provider's OCR or a vision model |
| `image.py` | `generate_image` |
| `audio.py` | `generate_audio` (text to speech) and its three-tier model/voice resolution |
| `speech_to_text.py` | `transcribe_audio` (whitelisted) and `speech_to_text` |
| `common.py` | what they share: the agent and conversation a call belongs to, files, provider config |

May import: `huf.ai.providers`, `huf.ai.http`, `huf.huf` rules.
"""
