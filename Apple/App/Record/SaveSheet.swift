import CoreLocation
import LiveTranscriberCore
import MapKit
import SwiftUI

/// After stop: name, tags, duration and an optional location, then save or discard.
struct SaveSheet: View {
    let model: RecordModel
    @State private var name = ""
    @State private var tags = ""
    @State private var keepLocation = false
    @State private var location: RecordingLocation?
    @State private var problem: String?

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    TextField("Name", text: $name, prompt: Text("Recording name"))
                    TextField("Tags", text: $tags, prompt: Text("work, ideas"))
                        .textInputAutocapitalization(.never)
                    LabeledContent("Duration", value: model.timerText)
                }
                Section {
                    Toggle("Save location", isOn: $keepLocation)
                    if keepLocation, let location {
                        Map(initialPosition: .region(MKCoordinateRegion(
                            center: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude),
                            latitudinalMeters: 500, longitudinalMeters: 500))) {
                            Marker("Recording", coordinate: CLLocationCoordinate2D(
                                latitude: location.latitude, longitude: location.longitude))
                        }
                        .frame(height: 160)
                    }
                }
                if let problem {
                    Text(problem).foregroundStyle(.red)
                }
            }
            .navigationTitle("Save Recording")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .destructiveAction) {
                    Button("Discard", role: .destructive) { model.discard() }
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Save") { save() }
                }
            }
            .task(id: keepLocation) {
                guard keepLocation, location == nil else { return }
                location = await CurrentLocation.once()
            }
        }
        .interactiveDismissDisabled()
    }

    private func save() {
        do {
            try model.save(name: name, tags: tags, location: keepLocation ? location : nil)
        } catch {
            problem = Sentence.capitalized(String(describing: error))
        }
    }
}

/// One location fix for the save sheet, asking for permission when needed.
enum CurrentLocation {
    static func once() async -> RecordingLocation? {
        let session = CLServiceSession(authorization: .whenInUse)
        defer { session.invalidate() }
        do {
            for try await update in CLLocationUpdate.liveUpdates() {
                if let location = update.location {
                    return RecordingLocation(
                        latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
                }
                if update.authorizationDenied || update.authorizationDeniedGlobally { return nil }
            }
        } catch {
            return nil
        }
        return nil
    }
}
