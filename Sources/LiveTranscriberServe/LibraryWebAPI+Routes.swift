import Foundation
import LiveTranscriberLinux

extension LibraryWebAPI {
    /// Every route `serve` answers, each declared once (docs/serve.md, "Routes", is rendered from
    /// this list). Reading routes take GET and HEAD; a change takes the token in the header too.
    static let routes: [WebRoute] = [
        // The page.
        WebRoute(["GET", "HEAD"], "/", .tokenHolder,
                 "the page; with `?token=`, 303 to `/` setting the `lt_token` cookie") { api, request, _ in
            // The printed URL's token becomes a cookie; the address bar then shows no token.
            if request.query["token"] != nil {
                return WebResponse(status: 303, headers: [("Location", "/"), ("Set-Cookie", api.access.cookie)])
            }
            return asset(WebPage.html(token: api.access.token), type: "text/html; charset=utf-8")
        },
        WebRoute(["GET", "HEAD"], "/app.css", .tokenHolder, "the page's style sheet") { _, _, _ in
            asset(WebPage.css, type: "text/css; charset=utf-8")
        },
        WebRoute(["GET", "HEAD"], "/app.js", .tokenHolder, "the Library and Recording views' script") { _, _, _ in
            asset(WebPage.javascript, type: "text/javascript; charset=utf-8")
        },
        WebRoute(["GET", "HEAD"], "/live.js", .tokenHolder, "the Live view's script") { _, _, _ in
            asset(WebPage.liveJavascript, type: "text/javascript; charset=utf-8")
        },

        // The library.
        WebRoute(["GET", "HEAD"], "/api/recordings", .tokenHolder, "a page of recordings, newest first") { api, request, _ in
            api.answer { try api.list(request) }
        },
        WebRoute(["GET", "HEAD"], "/api/tags", .tokenHolder, "every tag once") { api, _, _ in
            api.answer { try api.tags() }
        },
        WebRoute(["GET", "HEAD"], "/api/search", .tokenHolder, "a page of search results, best first") { api, request, _ in
            api.answer { try api.search(request) }
        },
        WebRoute(["POST"], "/v1/audio/transcriptions", .tokenHolderWithHeader, needs: .importer, otherMethods: .notFound,
                 "OpenAI's transcription API: transcribes the file, saves nothing") { api, request, _ in
            api.answer { try api.transcribe(request, with: api.importer!) }
        },
        WebRoute(["POST"], "/api/import", .tokenHolderWithHeader, needs: .importer, otherMethods: .notFound,
                 "imports the body's audio file as a recording") { api, request, _ in
            api.answer { try api.upload(request, with: api.importer!) }
        },

        // One recording.
        WebRoute(["GET", "HEAD"], "/api/recordings/{id}", .tokenHolder, "the recording and its transcript") { api, _, path in
            api.answer { try api.show(path["id"]) }
        },
        WebRoute(["DELETE"], "/api/recordings/{id}", .tokenHolderWithHeader, "moves the recording to the trash") { api, _, path in
            api.answer { try api.delete(path["id"]) }
        },
        WebRoute(["GET", "HEAD"], "/api/recordings/{id}/audio", .tokenHolder, "the audio file, with byte ranges") { api, request, path in
            api.answer { try api.audio(path["id"], range: request.headers["range"]) }
        },
        WebRoute(["GET", "HEAD"], "/api/recordings/{id}/export/{format}", .tokenHolder,
                 "the export in that format, as a download; `?transcript=translated` exports the translation") { api, request, path in
            api.answer { try api.export(path["id"], path["format"], transcript: request.query["transcript"]) }
        },
        WebRoute(["POST"], "/api/recordings/{id}/name", .tokenHolderWithHeader, "renames the recording") { api, request, path in
            api.answer { try api.rename(path["id"], request.body) }
        },
        WebRoute(["POST"], "/api/recordings/{id}/tags", .tokenHolderWithHeader, "adds and removes tags") { api, request, path in
            api.answer { try api.changeTags(path["id"], request.body) }
        },
        WebRoute(["POST"], "/api/recordings/{id}/speakers", .tokenHolderWithHeader, "names a speaker") { api, request, path in
            api.answer { try api.renameSpeaker(path["id"], request.body) }
        },
        WebRoute(["POST"], "/api/recordings/{id}/summarize", .tokenHolderWithHeader,
                 "summarizes the recording offline and saves the summary and tags") { api, _, path in
            api.answer { try api.summarize(path["id"]) }
        },
        WebRoute(["POST"], "/api/recordings/{id}/retranscribe", .tokenHolderWithHeader, needs: .retranscriber,
                 "starts transcribing the recording again, or translating it (202 with the job)") { api, request, path in
            api.answer { try api.retranscribe(path["id"], request.body) }
        },
        WebRoute(["GET"], "/api/recordings/{id}/retranscribe", .tokenHolder, needs: .retranscriber,
                 "the progress of its last job") { api, _, path in
            api.answer { try api.retranscription(path["id"]) }
        },

        // The Live page.
        WebRoute(["GET", "HEAD"], "/api/live", .tokenHolder, needs: .live,
                 "the recordings in progress and the page's recorder") { api, _, _ in
            .json(api.live!.answer(now: Date()))
        },
        WebRoute(["GET", "HEAD"], "/api/live/events", .tokenHolder, needs: .live,
                 "the same answer as server-sent events, on every change") { api, _, _ in
            api.live!.events()
        },
        WebRoute(["POST"], "/api/live/record", .tokenHolderWithHeader, needs: .live,
                 "starts recording this machine's microphone (or `--record-input`)") { api, request, _ in
            api.live!.recorderAnswer { try $0.start(request.body) }
        },
        WebRoute(["POST"], "/api/live/record/pause", .tokenHolderWithHeader, needs: .live, "pauses the page's recording") { api, _, _ in
            api.live!.recorderAnswer { try $0.pause(true) }
        },
        WebRoute(["POST"], "/api/live/record/resume", .tokenHolderWithHeader, needs: .live, "resumes the page's recording") { api, _, _ in
            api.live!.recorderAnswer { try $0.pause(false) }
        },
        WebRoute(["POST"], "/api/live/record/stop", .tokenHolderWithHeader, needs: .live,
                 "stops and saves the page's recording") { api, _, _ in
            api.live!.recorderAnswer { try $0.stop() }
        },
    ]

    static let router = WebRouter(routes: routes)

    /// True when the server was made with `service`.
    func provides(_ service: WebRoute.Service) -> Bool {
        switch service {
        case .live: return live != nil
        case .importer: return importer != nil
        case .retranscriber: return retranscriber != nil
        }
    }

    private static func asset(_ text: String, type: String) -> WebResponse {
        WebResponse(status: 200, headers: [("Content-Type", type)], body: .data(Data(text.utf8)))
    }
}
