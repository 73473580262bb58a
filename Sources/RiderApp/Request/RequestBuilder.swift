import RIBs

/// The builders of the Request flow's children.
struct RequestStepBuilders {
    let locations: LocationEditorBuilder
    let product: ProductSelectionBuilder
    let confirmation: ConfirmationBuilder
}

/// Builds the Request flow.
struct RequestBuilder: Builder {
    let dependency: any RideDependency

    func build() -> RequestRouter {
        RequestRouter(
            interactor: RequestInteractor(ride: dependency.ride),
            steps: RequestStepBuilders(
                locations: LocationEditorBuilder(dependency: dependency),
                product: ProductSelectionBuilder(dependency: dependency),
                confirmation: ConfirmationBuilder(dependency: dependency)))
    }
}
